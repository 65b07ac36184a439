#ifndef ZINC_CLIBCURL_H
#define ZINC_CLIBCURL_H

// libcurl's easy interface, loaded with dlopen the first time a client fetches over
// HTTP rather than linked. libcurl pulls in some thirty libraries (TLS, Kerberos, LDAP,
// IDN...) whose loading costs about 4 ms at every start of `zinc`: a sixth of an
// unchanged `update_bundle` re-run, which never talks HTTP. The wrappers also give Swift
// fixed-argument entry points to curl_easy_setopt, which is variadic.
#include <curl/curl.h>

/// Loads libcurl once (thread-safe). Returns NULL when it is ready, otherwise a message
/// saying what is missing; every later call returns the same answer.
const char *zinc_curl_load(void);

// Valid only after zinc_curl_load() returned NULL.
CURL *zinc_curl_easy_init(void);
void zinc_curl_easy_cleanup(CURL *handle);
/// Forgets every option but keeps the handle's connections, so the next request reuses them.
void zinc_curl_easy_reset(CURL *handle);
CURLcode zinc_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
const char *zinc_curl_easy_strerror(CURLcode code);
CURLcode zinc_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode zinc_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode zinc_curl_setopt_callback(CURL *handle, CURLoption option, curl_write_callback callback);
struct curl_slist *zinc_curl_slist_append(struct curl_slist *list, const char *string);
void zinc_curl_slist_free_all(struct curl_slist *list);

/// A transfer another thread can stop at once: the easy handle is driven through a multi
/// handle of its own (which also keeps its connections between transfers), whose wait
/// zinc_curl_transfer_stop wakes. curl_easy_perform offers no such thing: its progress
/// callback comes as rarely as once a second while nothing arrives.
typedef struct zinc_curl_transfer zinc_curl_transfer;
zinc_curl_transfer *zinc_curl_transfer_new(void);
void zinc_curl_transfer_free(zinc_curl_transfer *transfer);
/// Clears a stop, for the next transfer.
void zinc_curl_transfer_rearm(zinc_curl_transfer *transfer);
/// Performs the handle's transfer; CURLE_ABORTED_BY_CALLBACK when stopped (before or during).
CURLcode zinc_curl_transfer_perform(zinc_curl_transfer *transfer, CURL *handle);
/// Thread-safe: the perform in progress (or the next one, until rearmed) ends at once.
void zinc_curl_transfer_stop(zinc_curl_transfer *transfer);

#endif
