/** `off`: only the login and phone endpoints are limited; `real`: every API call, as the real service. */
export const RATE_LIMIT_MODES = ['off', 'real'] as const
export type RateLimitMode = (typeof RATE_LIMIT_MODES)[number]

export const isRateLimitMode = (text: string): text is RateLimitMode =>
  (RATE_LIMIT_MODES as readonly string[]).includes(text)
