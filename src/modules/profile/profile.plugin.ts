import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { randomBytes } from '../../common/random.ts'
import { DEFAULT_PHONE_SEND_LIMITS, type PhoneSendLimits } from './phone/phone-send-limits.ts'
import { LogPhoneCodeSender, type PhoneCodeSender } from './phone/phone-senders.ts'
import { SecretBox } from './secrets/secret-box.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Seals and digests profile secrets with the server key. */
    secretBox: SecretBox
    /** Delivers phone verification codes. */
    phoneSender: PhoneCodeSender
    /** How often phone codes may be sent. */
    phoneSendLimits: PhoneSendLimits
  }
}

export interface ProfilePluginOptions {
  /** 32 bytes; without one (tests, throwaway apps) a random key (seeded if the run is) lives as long as the app. */
  secretKey?: Buffer | undefined
  /** Without one, codes go to the server log. */
  phoneSender?: PhoneCodeSender | undefined
  /** Default: DEFAULT_PHONE_SEND_LIMITS. */
  phoneSendLimits?: PhoneSendLimits | undefined
}

async function profilePlugin(app: FastifyInstance, options: ProfilePluginOptions) {
  app.decorate('secretBox', new SecretBox(options.secretKey ?? randomBytes(32)))
  app.decorate('phoneSender', options.phoneSender ?? new LogPhoneCodeSender(() => app.log))
  app.decorate('phoneSendLimits', options.phoneSendLimits ?? DEFAULT_PHONE_SEND_LIMITS)
}

/** The profile area's infrastructure: the server key and the phone code sender. */
export const profileServices = fp(profilePlugin, { name: 'profile-services' })
