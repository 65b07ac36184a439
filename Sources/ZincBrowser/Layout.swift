import Zinc

/// The frame of every page: title, breadcrumbs and the one stylesheet, inline so that a
/// page is one request and needs no network.
extension CatalogBrowser {
    /// `crumbs`: the links above the title, from the catalogs down (text, address).
    /// `base`: what the page's relative links are relative to, whatever address it was
    /// reached by (`…/4` without its slash, say).
    func layout(title: String, crumbs: [(String, String)], base: String? = nil, body: HTML) -> HTML {
        let baseElement: HTML = base.map { "<base href=\"\($0)\">" } ?? ""
        let trail = HTML(
            joining: ([("Catalogs", urls.catalogs())] + crumbs).enumerated().map { position, crumb in
                let separator: HTML = position == 0 ? "" : "<span class=\"sep\">/</span>"
                return "\(separator)<a href=\"\(crumb.1)\">\(crumb.0)</a>"
            })
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · zinc</title>\(baseElement)<style>\(Self.stylesheet)</style></head>
            <body><header><span class="logo">zinc</span><nav>\(trail)</nav></header><main>\(body)</main></body></html>
            """
    }

    /// Distribution names as badges; `_name` previous pointers look quieter.
    func badges(_ distributions: [String]) -> HTML {
        HTML(
            joining: distributions.map { name in
                name.hasPrefix("_") ? "<span class=\"badge prev\">\(name)</span>" : "<span class=\"badge\">\(name)</span>"
            })
    }

    static let stylesheet: HTML = """
        :root{--fg:#1d232b;--muted:#667085;--line:#e4e7ec;--bg:#f7f8fa;--accent:#2f6fde;--add:#157f3b;--del:#b42318;--chg:#b54708}
        *{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
        header{display:flex;gap:18px;align-items:center;padding:10px 24px;background:#1d232b;color:#fff}
        header a{color:#cfd8e3;text-decoration:none}header a:hover{color:#fff}.logo{font-weight:700;letter-spacing:.04em}
        .sep{color:#667085;margin:0 6px}main{max-width:1180px;margin:0 auto;padding:20px 24px 48px}
        h1{font-size:22px;margin:6px 0 4px}h2{font-size:16px;margin:28px 0 8px}.sub{color:var(--muted);margin:0 0 16px}
        a{color:var(--accent)}table{width:100%;border-collapse:collapse;background:#fff;border:1px solid var(--line);border-radius:6px}
        th,td{text-align:left;padding:6px 10px;border-bottom:1px solid var(--line);vertical-align:middle}
        th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);background:#fbfcfd}
        td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        code,.sha{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}.sha{color:var(--muted)}
        .badge{display:inline-block;padding:1px 8px;margin:0 4px 0 0;border-radius:10px;background:#e8f0fe;color:#1d4ed8;font-size:12px}
        .badge.prev{background:#f2f4f7;color:var(--muted)}.dir td{background:#fbfcfd;font-weight:600}
        .thumb{width:32px;height:32px;object-fit:contain;vertical-align:middle;margin-right:8px;background:#f2f4f7;border-radius:3px}
        .cards{display:flex;gap:12px;flex-wrap:wrap;margin:12px 0}.card{background:#fff;border:1px solid var(--line);border-radius:6px;padding:10px 14px;min-width:140px}
        .card b{display:block;font-size:20px}.card span{color:var(--muted);font-size:12px}
        .added{color:var(--add)}.removed{color:var(--del)}.changed{color:var(--chg)}
        .bar{height:10px;border-radius:5px;background:#c7d7f5;min-width:2px}.bar.chosen{background:var(--accent)}
        .bars td{padding:4px 10px}.pair{display:flex;gap:16px}.pair figure{margin:0;text-align:center}.pair img{max-width:240px;max-height:160px;background:#f2f4f7}
        .preview img,.preview video{max-width:100%;max-height:70vh;background:#fff;border:1px solid var(--line)}
        pre{background:#fff;border:1px solid var(--line);border-radius:6px;padding:12px;overflow:auto;max-height:70vh}
        form.diff{display:flex;gap:8px;align-items:center;margin:8px 0}select,button{font:inherit;padding:3px 6px}
        .error{color:var(--del)}.muted{color:var(--muted)}
        """
}
