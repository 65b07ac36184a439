// The catalog format (manifest, index, objects, chunk lists, signatures, digests, codecs,
// errors) lives in ZincFormat, which the client imports too; every program that imports
// Zinc sees it as before.
@_exported public import ZincFormat
