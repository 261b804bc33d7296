/// The consent sheet's stylesheet: Apple's sheet in shape (a centred card, system font, a full-width
/// Continue button) without Apple's artwork. Inline in the page and allowed by its hash in the CSP.
enum SheetStyle {
    static let css = """
        :root{color-scheme:light dark;--fg:#1d1d1f;--muted:#6e6e73;--bg:#f5f5f7;--card:#fff;--line:#d2d2d7;\
        --accent:#0071e3}
        @media (prefers-color-scheme:dark){:root{--fg:#f5f5f7;--muted:#a1a1a6;--bg:#000;--card:#1d1d1f;\
        --line:#424245;--accent:#2997ff}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--fg);font:17px/1.45 -apple-system,BlinkMacSystemFont,\
        "Helvetica Neue",Helvetica,Arial,sans-serif}
        main{max-width:460px;margin:16px auto;padding:24px 28px;background:var(--card);border-radius:18px;\
        box-shadow:0 4px 24px rgba(0,0,0,.08)}
        .brand{font-size:15px;font-weight:600;color:var(--muted);margin:0 0 20px;text-align:center}
        h1{font-size:24px;line-height:1.25;margin:0 0 8px;text-align:center}
        .lead,.account-email{color:var(--muted);text-align:center;margin:0 0 24px}
        fieldset{border:0;margin:0 0 20px;padding:0}
        legend{font-size:13px;font-weight:600;text-transform:uppercase;letter-spacing:.02em;color:var(--muted);\
        margin-bottom:8px}
        .choice{display:flex;gap:12px;align-items:flex-start;padding:12px 14px;border:1px solid var(--line);\
        border-radius:12px;margin-bottom:8px;cursor:pointer}
        .choice:has(input:checked){border-color:var(--accent);box-shadow:0 0 0 1px var(--accent)}
        .choice input{margin-top:5px;accent-color:var(--accent)}
        .choice span{display:block}
        .detail{font-size:14px;color:var(--muted)}
        .field{display:block;margin-bottom:10px;font-size:14px;color:var(--muted)}
        .field input{display:block;width:100%;margin-top:4px;padding:10px 12px;font:inherit;color:var(--fg);\
        background:transparent;border:1px solid var(--line);border-radius:10px}
        .buttons{display:flex;flex-direction:column;gap:10px;margin-top:24px}
        button{font:inherit;font-weight:600;padding:12px 16px;border-radius:12px;cursor:pointer}
        .primary{background:var(--accent);color:#fff;border:0}
        .secondary{background:transparent;color:var(--accent);border:1px solid var(--line)}
        :focus-visible{outline:3px solid var(--accent);outline-offset:2px}
        .note{font-size:12px;color:var(--muted);text-align:center;margin-top:20px}
        """
}
