extension DashboardAssets {
    /// `/mock/ui/dashboard.css`: plain CSS, system fonts, no images.
    static let styleText = """
        :root { color-scheme: light dark; --line: #8884; --muted: #888; --bad: #c0392b; --good: #1e8449; }
        body { font: 13px/1.4 system-ui, -apple-system, sans-serif; margin: 0; }
        header { display: flex; gap: 1em; align-items: center; padding: .5em 1em; border-bottom: 1px solid var(--line); }
        header h1 { font-size: 1.2em; margin: 0; }
        header form { margin-left: auto; }
        #status { margin: 0; color: var(--muted); }
        #status.error { color: var(--bad); }
        main { display: grid; grid-template-columns: repeat(auto-fit, minmax(22em, 1fr)); gap: 1em; padding: 1em; }
        main.sign-in { display: block; max-width: 24em; margin: 4em auto; }
        main.sign-in input { display: block; width: 100%; margin: .5em 0; box-sizing: border-box; }
        section { border: 1px solid var(--line); border-radius: 6px; padding: .5em 1em; overflow: auto; }
        section.wide { grid-column: 1 / -1; }
        #users-section, #journal-section { max-height: 32em; }
        h2 { font-size: 1em; margin: .3em 0 .6em; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; vertical-align: top; padding: 2px 6px; border-bottom: 1px solid var(--line); }
        th { position: sticky; top: 0; background: Canvas; }
        td.params { white-space: pre-wrap; font-family: ui-monospace, monospace; font-size: 12px; }
        .authorized, .ok, .delivered { color: var(--good); }
        .revoked, .transferred, .refused, .failed { color: var(--bad); }
        .not_found, .pending { color: var(--muted); }
        tr.refused td { background: #c0392b14; }
        button { margin: 1px 2px; font: inherit; font-size: 12px; padding: 1px 6px; }
        td.time { white-space: nowrap; }
        td.actions { min-width: 12em; }
        td { overflow-wrap: break-word; }
        .clip { max-width: 20em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        td.params .clip { font-family: ui-monospace, monospace; font-size: 12px; max-width: 24em; }
        tr.empty td { color: var(--muted); font-style: italic; }
        .error { color: var(--bad); }
        form { display: inline; }
        """
}
