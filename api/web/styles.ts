// The dashboard's one stylesheet, served from /app/assets/app.css (the Content-Security-Policy allows
// styles from this origin only, so there are no inline styles anywhere). System fonts, no images.
export const STYLESHEET = `
:root {
  --ink: #14213d; --muted: #5b6478; --line: #dde2ea; --bg: #f5f7fb; --card: #fff;
  --brand: #0b5cad; --brand-dark: #084583; --accent: #e63946; --ok: #1b7f4b; --warn: #9a5b00;
  --radius: 10px; --shadow: 0 1px 2px rgba(20,33,61,.06), 0 4px 16px rgba(20,33,61,.06);
  color-scheme: light;
}
* { box-sizing: border-box; }
html { font-size: 16px; }
body {
  margin: 0; background: var(--bg); color: var(--ink);
  font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--brand); }
a:hover { color: var(--brand-dark); }
:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; }
.skip { position: absolute; left: -9999px; top: 0; background: #ffbf47; color: #000; padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: 1rem; }
.topbar { background: var(--ink); color: #fff; }
.topbar-inner { max-width: 72rem; margin: 0 auto; padding: .75rem 1.25rem; display: flex; align-items: center; gap: 1.5rem; flex-wrap: wrap; }
.brand { color: #fff; text-decoration: none; font-weight: 700; font-size: 1.15rem; letter-spacing: .01em; display: flex; align-items: center; gap: .5rem; }
.brand:hover { color: #fff; }
.brand-mark { display: inline-block; width: 1.4rem; height: 1.4rem; border-radius: 4px; background: linear-gradient(180deg, var(--accent) 0 33%, #fff 33% 66%, var(--accent) 66%); }
.brand small { font-weight: 400; color: #b9c3d6; font-size: .85rem; }
.nav { display: flex; gap: .25rem; flex-wrap: wrap; margin: 0; padding: 0; list-style: none; }
.nav a { color: #dfe6f3; text-decoration: none; padding: .4rem .7rem; border-radius: 6px; display: block; }
.nav a:hover { background: rgba(255,255,255,.1); color: #fff; }
.nav a[aria-current="page"] { background: rgba(255,255,255,.16); color: #fff; font-weight: 600; }
.session { display: flex; align-items: center; gap: 1rem; color: #b9c3d6; font-size: .9rem; margin-left: auto; }
.who { max-width: 16rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.session form { margin: 0; }
.lang { color: #dfe6f3; font-size: .9rem; }
main { max-width: 72rem; margin: 0 auto; padding: 2rem 1.25rem 3rem; }
main.narrow { max-width: 28rem; }
main.medium { max-width: 40rem; }
h1 { font-size: 1.75rem; line-height: 1.25; margin: 0 0 .5rem; }
h2 { font-size: 1.2rem; margin: 0 0 .75rem; }
.lead { color: var(--muted); margin: 0 0 1.5rem; max-width: 48rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow); padding: 1.5rem; margin-bottom: 1.5rem; }
/* Wide tables scroll inside their card on a phone rather than widening the page. */
.card:has(table) { overflow-x: auto; }
.grid { display: grid; gap: 1.5rem; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); margin-bottom: 1.5rem; }
.grid .card { margin: 0; }
.stat-label { color: var(--muted); font-size: .9rem; margin: 0; }
.stat { font-size: 2rem; font-weight: 700; margin: .25rem 0; font-variant-numeric: tabular-nums; }
.muted { color: var(--muted); }
.small { font-size: .875rem; }
form.stack { display: grid; gap: 1rem; }
label { font-weight: 600; display: block; margin-bottom: .3rem; }
.hint { color: var(--muted); font-size: .875rem; margin: .25rem 0 0; }
input[type=email], input[type=password], input[type=text] {
  width: 100%; font: inherit; padding: .6rem .75rem; border: 1px solid #b8c0cc; border-radius: 8px; background: #fff; color: var(--ink);
}
input[aria-invalid=true] { border-color: var(--accent); }
.inline-form { display: flex; gap: .5rem; align-items: flex-end; flex-wrap: wrap; margin: 0; }
.inline-form .field { flex: 1; min-width: 12rem; }
button, .button {
  font: inherit; font-weight: 600; border: 1px solid var(--brand); background: var(--brand); color: #fff;
  padding: .6rem 1.1rem; border-radius: 8px; cursor: pointer; text-decoration: none; display: inline-block; line-height: 1.2;
}
button:hover, .button:hover { background: var(--brand-dark); color: #fff; }
button.secondary, .button.secondary { background: #fff; color: var(--brand); }
button.secondary:hover, .button.secondary:hover { background: #eef4fb; color: var(--brand-dark); }
button.danger { background: #fff; color: #b3261e; border-color: #b3261e; }
button.danger:hover { background: #fdecea; }
button.small, .button.small { padding: .35rem .7rem; font-size: .875rem; }
button.link { background: none; border: 0; color: #dfe6f3; padding: 0; font-weight: 400; text-decoration: underline; }
button.link:hover { background: none; color: #fff; }
.wide { width: 100%; }
.alert { border-radius: 8px; padding: .85rem 1rem; margin-bottom: 1.25rem; border: 1px solid; }
.alert p { margin: 0; }
.alert ul { margin: .4rem 0 0; padding-left: 1.25rem; }
.alert-error { background: #fdecea; border-color: #f1b0ab; color: #7a1c15; }
.alert-ok { background: #e8f5ee; border-color: #a8d5bb; color: #11502f; }
.alert-warn { background: #fff4e0; border-color: #f0c987; color: #6b3f00; }
.secret { display: block; font: 600 1rem/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #0f1a30; color: #d7f5e4;
  padding: .9rem 1rem; border-radius: 8px; word-break: break-all; margin: .75rem 0; user-select: all; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; background: #eef1f6; padding: .1rem .3rem; border-radius: 4px; }
pre { background: #0f1a30; color: #e6ecf5; padding: 1rem; border-radius: 8px; font-size: .875rem; white-space: pre-wrap; word-break: break-all; }
pre code { background: none; color: inherit; padding: 0; }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: .6rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; }
tr.revoked td { color: var(--muted); }
.badge { display: inline-block; font-size: .75rem; font-weight: 600; padding: .1rem .5rem; border-radius: 999px; border: 1px solid; }
.badge-ok { color: var(--ok); border-color: #a8d5bb; background: #e8f5ee; }
.badge-off { color: var(--muted); border-color: var(--line); background: #f2f4f8; }
.badge-warn { color: var(--warn); border-color: #f0c987; background: #fff4e0; }
.actions { display: flex; gap: .4rem; flex-wrap: wrap; }
.actions form { margin: 0; }
details.rename summary { cursor: pointer; color: var(--brand); font-size: .875rem; }
details.rename form { margin-top: .5rem; }
meter { width: 100%; height: 1rem; }
.chart { width: 100%; height: auto; display: block; margin: .5rem 0 1rem; }
.chart .bar-rest { fill: var(--brand); }
.chart .bar-mcp { fill: #f4a261; }
.chart .axis { stroke: var(--line); }
.chart text { fill: var(--muted); font-size: 10px; font-family: inherit; }
.legend { display: flex; gap: 1rem; font-size: .875rem; color: var(--muted); margin: 0; padding: 0; list-style: none; }
.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .35rem; vertical-align: -1px; }
.swatch-rest { background: var(--brand); }
.swatch-mcp { background: #f4a261; }
.auth-card { margin-top: 1rem; }
.auth-switch { text-align: center; color: var(--muted); margin-top: 1.25rem; }
.consent-client { display: flex; align-items: center; gap: 1rem; margin-bottom: 1rem; }
.consent-avatar { width: 3rem; height: 3rem; border-radius: 10px; background: #e3ecf8; color: var(--brand); font-weight: 700; font-size: 1.4rem;
  display: flex; align-items: center; justify-content: center; flex: none; }
.host { font: 600 1rem ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-all; }
fieldset { border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; margin: 0; }
legend { font-weight: 600; padding: 0 .25rem; }
.choice { display: flex; gap: .5rem; align-items: baseline; font-weight: 400; margin: .35rem 0; }
.button-row { display: flex; gap: .75rem; flex-wrap: wrap; }
.button-row > * { flex: 1; text-align: center; }
footer { max-width: 72rem; margin: 0 auto; padding: 0 1.25rem 2rem; color: var(--muted); font-size: .85rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 40rem) {
  .topbar-inner { gap: .75rem; }
  th.hide-narrow, td.hide-narrow, .hide-narrow { display: none; }
  main { padding: 1.25rem 1rem 2rem; }
  .card { padding: 1rem; }
}
`;
