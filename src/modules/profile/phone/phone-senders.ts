import type { FastifyBaseLogger } from 'fastify'

/** One verification code on its way to a phone. */
export interface PhoneCodeMessage {
  username: string
  /** E.164 */
  phoneNumber: string
  code: string
  /** When the code stops working (UTC `YYYY-MM-DDTHH:MM:SS`). */
  expiry: string
}

/** How verification codes reach phones; a failure is reported to the caller, who may ask again. */
export interface PhoneCodeSender {
  send(message: PhoneCodeMessage): Promise<void>
}

/**
 * The default sender: the server log is the delivery channel (an emulator has no SMS gateway).
 * The code is in the message text on purpose; nothing else about the request is logged.
 */
export class LogPhoneCodeSender implements PhoneCodeSender {
  readonly #log: () => FastifyBaseLogger

  constructor(log: () => FastifyBaseLogger) {
    this.#log = log
  }

  async send(message: PhoneCodeMessage): Promise<void> {
    const log = this.#log()
    log.info(
      { phone_number: message.phoneNumber, username: message.username },
      `phone verification code for ${message.phoneNumber}: ${message.code} (valid until ${message.expiry} UTC)`,
    )
    // The server's logger buffers its output; a code waiting in a buffer has not been delivered.
    ;(log as { flush?: () => void }).flush?.()
  }
}

export const WEBHOOK_TIMEOUT_MS = 10_000

/**
 * POSTs `{"username", "phone_number", "code", "expiry"}` as JSON to a configured URL (an SMS
 * gateway adapter, a test harness). Any non-2xx answer or a timeout counts as not delivered.
 */
export class WebhookPhoneCodeSender implements PhoneCodeSender {
  readonly #url: string
  readonly #timeoutMs: number
  readonly #log: FastifyBaseLogger | undefined

  constructor(url: string, options: { timeoutMs?: number; log?: FastifyBaseLogger } = {}) {
    this.#url = url
    this.#timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS
    this.#log = options.log
  }

  async send(message: PhoneCodeMessage): Promise<void> {
    try {
      const response = await fetch(this.#url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: message.username,
          phone_number: message.phoneNumber,
          code: message.code,
          expiry: message.expiry,
        }),
        signal: AbortSignal.timeout(this.#timeoutMs),
        redirect: 'error',
      })
      await response.body?.cancel()
      if (!response.ok) throw new Error(`the webhook answered ${response.status}`)
    } catch (error) {
      // Never the code or the body: only what went wrong.
      this.#log?.warn({ reason: (error as Error).message }, 'phone code webhook delivery failed')
      throw error
    }
  }
}
