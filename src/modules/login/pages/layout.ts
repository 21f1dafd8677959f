import { html, type Raw } from './html.ts'

/**
 * The frame of every login page: plain HTML and CSS, no script, so they work with JavaScript off
 * and with any assistive technology. Focus is always visible; errors are announced (role=alert).
 */
const STYLE = `
:root { color-scheme: light; font-family: system-ui, sans-serif; }
body { margin: 0; background: #eef2f7; color: #14213d; }
main { max-width: 26rem; margin: 4rem auto; background: #fff; padding: 2rem; border-radius: 0.75rem;
  box-shadow: 0 2px 12px rgba(20, 33, 61, 0.12); }
h1 { font-size: 1.4rem; margin: 0 0 1rem; }
.brand { color: #1f5fa8; font-weight: 700; margin: 0 0 1.5rem; }
label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
input[type=text], input[type=password] { width: 100%; box-sizing: border-box; padding: 0.6rem;
  font-size: 1rem; border: 1px solid #7a869a; border-radius: 0.4rem; }
.check { display: flex; gap: 0.5rem; align-items: center; font-weight: 400; }
button { margin-top: 1.25rem; padding: 0.65rem 1.2rem; font-size: 1rem; border-radius: 0.4rem;
  border: 1px solid #1f5fa8; background: #1f5fa8; color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: #1f5fa8; }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.error { background: #fdecea; color: #8a1c1c; border: 1px solid #e0a3a3; padding: 0.75rem; border-radius: 0.4rem; }
.hint { color: #4a5568; font-size: 0.9rem; }
ul.scopes { padding-left: 1.2rem; }
.actions { display: flex; gap: 0.75rem; }
`

export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'none'; base-uri 'none'"

export function page(title: string, body: Raw): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · cloudplane</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">cloudplane</p>
${body}
</main>
</body>
</html>
`.html
}

export function errorBox(message: string | undefined): Raw {
  return message === undefined ? html`` : html`<p class="error" role="alert" id="form-error">${message}</p>`
}
