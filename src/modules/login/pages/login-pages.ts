import { hiddenFields, html } from './html.ts'
import { errorBox, page } from './layout.ts'

export interface FormContext {
  csrf: string
  /** Where to go once this step is done: the authorization request, or the signed-in page. */
  next: string
  error?: string | undefined
}

const described = (ctx: FormContext) =>
  ctx.error === undefined ? html`` : html` aria-describedby="form-error"`

export function loginPage(
  ctx: FormContext & { username?: string; clientLabel?: string | undefined },
): string {
  const intro =
    ctx.clientLabel === undefined
      ? html`<p>Sign in to your account.</p>`
      : html`<p>Sign in to continue to <strong>${ctx.clientLabel}</strong>.</p>`
  return page(
    'Sign in',
    html`<h1>Sign in</h1>
${intro}
${errorBox(ctx.error)}
<form method="post" action="/login">
${hiddenFields({ csrf: ctx.csrf, next: ctx.next })}
<label for="username">Username</label>
<input type="text" id="username" name="username" autocomplete="username" required autofocus value="${ctx.username ?? ''}"${described(ctx)}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${described(ctx)}>
<button type="submit">Sign in</button>
</form>`,
  )
}

export function twoFactorPage(ctx: FormContext & { username: string }): string {
  return page(
    'Two-factor authentication',
    html`<h1>Two-factor authentication</h1>
<p>Signing in as <strong>${ctx.username}</strong>. Enter the 6-digit code from your authenticator app, or your scratch code.</p>
${errorBox(ctx.error)}
<form method="post" action="/login/two-factor">
${hiddenFields({ csrf: ctx.csrf, next: ctx.next })}
<label for="code">Code</label>
<input type="text" id="code" name="code" inputmode="text" autocomplete="one-time-code" required autofocus${described(ctx)}>
<label class="check" for="trust"><input type="checkbox" id="trust" name="trust" value="yes"> Trust this computer for 30 days</label>
<p class="hint">A trusted computer skips this step until the trust expires or you revoke it in your profile.</p>
<button type="submit">Verify</button>
</form>`,
  )
}

export function consentPage(ctx: {
  csrf: string
  clientLabel: string
  username: string
  scopeWords: string[]
  params: Record<string, string>
}): string {
  return page(
    'Authorize app',
    html`<h1>Authorize ${ctx.clientLabel}</h1>
<p><strong>${ctx.clientLabel}</strong> asks to act as <strong>${ctx.username}</strong>. It will be able to:</p>
<ul class="scopes">${ctx.scopeWords.map((w) => html`<li>${w}</li>`)}</ul>
<p class="hint">You can revoke its access at any time from the authorized apps of your profile.</p>
<form method="post" action="/oauth/authorize">
${hiddenFields({ csrf: ctx.csrf, ...ctx.params })}
<div class="actions">
<button type="submit" name="decision" value="allow" autofocus>Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</div>
</form>`,
  )
}

export function messagePage(title: string, message: string): string {
  return page(title, html`<h1>${title}</h1><p role="status">${message}</p>`)
}
