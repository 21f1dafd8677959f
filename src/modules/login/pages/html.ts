/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

/** A tagged template whose interpolations are escaped unless they are `raw(...)` fragments. */
export class Raw {
  readonly html: string
  constructor(text: string) {
    this.html = text
  }
}
export const raw = (html: string) => new Raw(html)

export function html(strings: TemplateStringsArray, ...values: Array<string | number | Raw | Raw[]>): Raw {
  let out = strings[0] ?? ''
  values.forEach((value, i) => {
    if (Array.isArray(value)) out += value.map((v) => v.html).join('')
    else out += value instanceof Raw ? value.html : escapeHtml(String(value))
    out += strings[i + 1] ?? ''
  })
  return new Raw(out)
}

export const hiddenFields = (fields: Record<string, string>): Raw[] =>
  Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)
