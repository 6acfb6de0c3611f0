extension TimelinePage {
  /// The page's style sheet: system fonts only, the outcome colours in one place.
  static let style = """
    :root {
      --finished: #2e7d32; --cancelled: #8d8d8d; --failed: #c62828; --running: #1565c0;
      --line: #e3e3e3; --muted: #6b6b6b; --paper: #fff; --ground: #f6f7f9;
    }
    * { box-sizing: border-box; }
    body {
      margin: 0; color: #1f1f1f; background: var(--ground);
      font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
    }
    header, section, nav { padding: 12px 24px; }
    h1 { font-size: 20px; margin: 0 0 4px; }
    h2 { font-size: 15px; margin: 0 0 8px; }
    code { font: 12.5px/1.4 ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
    .system, .facts { margin: 2px 0; color: var(--muted); }
    .summary { display: flex; flex-wrap: wrap; gap: 12px; }
    .figure {
      background: var(--paper); border: 1px solid var(--line); border-radius: 6px;
      padding: 8px 14px; min-width: 110px;
    }
    .figure .value { display: block; font-size: 20px; font-weight: 600; }
    .figure .label { color: var(--muted); font-size: 12px; }
    .count { margin-right: 10px; white-space: nowrap; }
    .chip {
      display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px;
      vertical-align: -1px;
    }
    .outcome-finished .chip, .bar-finished { background: var(--finished); }
    .outcome-cancelled .chip, .bar-cancelled { background: var(--cancelled); }
    .outcome-failed .chip, .bar-failed { background: var(--failed); }
    .outcome-running .chip, .bar-running {
      background: repeating-linear-gradient(45deg, var(--running) 0 6px, #5e92d6 6px 12px);
    }
    .filters {
      position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: 16px;
      align-items: center; background: var(--paper); border-block: 1px solid var(--line);
    }
    .filters select, .filters input { font: inherit; padding: 2px 6px; }
    .filters input { width: 240px; }
    .shown { color: var(--muted); }
    .timeline, .events { background: var(--paper); margin: 12px 0; }
    .lane {
      display: grid; grid-template-columns: minmax(180px, 30%) 1fr minmax(150px, 20%);
      gap: 12px; align-items: center; min-height: 22px; border-bottom: 1px solid var(--line);
    }
    .lane .label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .lane .number { color: var(--muted); }
    .track { position: relative; height: 20px; }
    .axis .track { height: 18px; border-bottom: 1px solid #bbb; }
    .axis .label, .events .label { color: var(--muted); }
    .tick {
      position: absolute; top: 0; padding-left: 3px; border-left: 1px solid #bbb;
      color: var(--muted); font-size: 11px; white-space: nowrap;
    }
    .mark {
      position: absolute; top: 3px; width: 3px; height: 14px; margin-left: -1px;
      background: #37474f; border-radius: 1px;
    }
    .mark-ignored { background: #b0bec5; }
    .bar { position: absolute; top: 4px; height: 12px; min-width: 3px; border-radius: 3px; }
    .bar-open-start { border-top-left-radius: 0; border-bottom-left-radius: 0; }
    .bar-open-end { border-top-right-radius: 0; border-bottom-right-radius: 0; }
    .lane .outcome { font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .lane .outcome-failed { color: var(--failed); }
    .empty, .none, .note { color: var(--muted); }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
    th { font-size: 12px; color: var(--muted); font-weight: 600; }
    td.number, td.time { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
    tr.ignored td { color: var(--muted); font-style: italic; }
    td.changes ul { margin: 0; padding: 0; list-style: none; }
    .before { color: #b71c1c; }
    .after { color: #1b5e20; }
    tr:target, .lane:target { background: #fff8d6; }
    [hidden] { display: none !important; }
    """
}
