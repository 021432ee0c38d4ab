/// The console's style sheet, served at `/console.css` (the Content-Security-Policy allows no inline
/// style). Colours meet WCAG AA contrast; motion stops when the system asks for less.
enum ConsoleStyle {
    static let source = #"""
        :root {
          --ink: #1b1b1f; --muted: #4d4d57; --paper: #ffffff; --panel: #f3f4f7; --line: #c9ccd4;
          --accent: #1a56a8; --accent-ink: #ffffff; --good: #1d6b33; --bad: #a4161a; --focus: #c2410c;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 100%;
          color: var(--ink); background: var(--paper); line-height: 1.45;
        }
        @media (prefers-color-scheme: dark) {
          :root { --ink: #f1f1f4; --muted: #c4c6cf; --paper: #15161a; --panel: #22242b; --line: #4a4d58;
                  --accent: #8ab4f8; --accent-ink: #0b1b33; --good: #7bd88f; --bad: #ff8a8a; --focus: #fdba74; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; }
        h1 { font-size: 1.25rem; margin: 0; }
        h2 { font-size: 1.05rem; margin: 0 0 .5rem; }
        h3 { font-size: 1rem; margin: 0; }
        .skip { position: absolute; left: -999px; top: 0; background: var(--accent); color: var(--accent-ink); padding: .5rem; }
        .skip:focus { left: .5rem; z-index: 10; }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .bar { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; justify-content: space-between;
               padding: .75rem 1rem; border-bottom: 1px solid var(--line); }
        #account { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
        #account[hidden], [hidden] { display: none !important; }
        main { padding: 1rem; max-width: 80rem; margin: 0 auto; }
        #console { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; }
        .column { display: flex; flex-direction: column; gap: 1rem; min-width: 0; }
        section { background: var(--panel); border: 1px solid var(--line); border-radius: .75rem; padding: .75rem 1rem; }
        label { display: block; font-weight: 600; margin-bottom: .25rem; }
        .row { display: flex; gap: .5rem; }
        .row input { flex: 1; min-width: 0; }
        input { font: inherit; padding: .5rem .6rem; border: 1px solid var(--muted); border-radius: .4rem;
                background: var(--paper); color: var(--ink); }
        button { font: inherit; padding: .45rem .8rem; min-height: 2.5rem; border-radius: .4rem; cursor: pointer;
                 border: 1px solid var(--accent); background: var(--accent); color: var(--accent-ink); }
        button.quiet, .choices button, .chips button, .card button, #hits button, #account button {
          background: var(--paper); color: var(--accent); }
        button:disabled { opacity: .6; cursor: default; }
        .quiet { margin-top: .5rem; }
        .error { color: var(--bad); min-height: 1.2em; }
        #log { list-style: none; margin: 0 0 .75rem; padding: 0; max-height: 28rem; overflow-y: auto; }
        #log li { margin: .4rem 0; padding: .5rem .7rem; border-radius: .6rem; max-width: 92%; width: fit-content; }
        #log li.user { background: var(--accent); color: var(--accent-ink); margin-left: auto; }
        #log li.answer { background: var(--paper); border: 1px solid var(--line); }
        #log li.answer.failed { border-color: var(--bad); }
        .who { position: absolute; left: -9999px; }
        .dialog { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
        .choices, .chips { display: flex; flex-wrap: wrap; gap: .4rem; list-style: none; padding: 0; margin: .4rem 0 0; }
        .opens { margin: .3rem 0 0; padding-left: 1.2rem; overflow-wrap: anywhere; }
        #tip { margin: 0 0 .5rem; }
        #hits { list-style: none; padding: 0; margin: .5rem 0 0; }
        #hits li { display: flex; gap: .5rem; align-items: center; justify-content: space-between; padding: .4rem 0;
                   border-top: 1px solid var(--line); }
        .hit-text { min-width: 0; overflow-wrap: anywhere; }
        .hit-text span, .muted { color: var(--muted); }
        code { font-size: .85em; overflow-wrap: anywhere; }
        #stack { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: .6rem; }
        .card { background: var(--paper); border: 1px solid var(--line); border-radius: 1rem; padding: .7rem;
                display: flex; flex-direction: column; gap: .3rem; min-width: 0; overflow-wrap: anywhere; }
        .card.family-medium, .card.family-large, .card.family-extraLarge, .card.family-accessoryRectangular { grid-column: span 2; }
        .card.family-large, .card.family-extraLarge { min-height: 14rem; }
        .card .app { font-size: .8rem; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
        .card .content-title { font-weight: 600; margin: 0; }
        .card .value { font-size: 1.6rem; font-weight: 700; margin: 0; }
        .card .value .label { font-size: .85rem; font-weight: 400; color: var(--muted); margin-left: .3rem; }
        .card p { margin: 0; }
        .card ul { list-style: none; margin: 0; padding: 0; }
        .card li { display: flex; flex-wrap: wrap; gap: .3rem; align-items: center; justify-content: space-between;
                   padding: .2rem 0; border-top: 1px solid var(--line); }
        .card .buttons { display: flex; flex-wrap: wrap; gap: .3rem; }
        meter, progress { width: 100%; height: .8rem; }
        #controls, #activities { list-style: none; padding: 0; margin: 0; }
        #controls li { display: flex; align-items: center; justify-content: space-between; gap: .5rem; padding: .3rem 0; }
        button[role="switch"] { min-width: 4.5rem; background: var(--paper); color: var(--ink); border-color: var(--muted); }
        button[role="switch"][aria-checked="true"] { background: var(--good); border-color: var(--good); color: var(--paper); }
        button[role="switch"]::before { content: "○ "; }
        button[role="switch"][aria-checked="true"]::before { content: "● "; }
        #activities li { padding: .4rem 0; border-top: 1px solid var(--line); }
        #activities li:first-child { border-top: 0; }
        progress { accent-color: var(--accent); transition: all .4s ease; }
        #live-status { color: var(--muted); font-size: .85rem; }
        @media (max-width: 48rem) {
          #console { grid-template-columns: minmax(0, 1fr); }
          main { padding: .5rem; }
          #log { max-height: 22rem; }
        }
        @media (prefers-reduced-motion: reduce) {
          *, *::before, *::after { transition: none !important; animation: none !important; scroll-behavior: auto !important; }
        }
        """#
}
