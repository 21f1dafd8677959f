import { lazyModule } from '../../../startup/lazy-module.ts'

/** The full metadata is large: loaded by the first phone number, not at start-up. */
const phoneLibrary = lazyModule<typeof import('libphonenumber-js/max')>('libphonenumber-js/max')

/**
 * Phone numbers through libphonenumber-js with its full ("max") metadata.
 */
export function isCountryCode(isoCode: string): boolean {
  return phoneLibrary().isSupportedCountry(isoCode.toUpperCase())
}

/**
 * The number in E.164 when it is a possible number of that country (its calling code, a length
 * its plan allows), else undefined. Whether a carrier assigned it is not checked, as on the real
 * service: the API document's own example, US 555-555-5555, is accepted.
 */
export function toE164(phoneNumber: string, isoCode: string): string | undefined {
  const { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString } = phoneLibrary()
  const country = isoCode.toUpperCase()
  if (!isSupportedCountry(country)) return undefined
  const parsed = parsePhoneNumberFromString(phoneNumber, country)
  if (parsed === undefined || !parsed.isPossible()) return undefined
  if (parsed.countryCallingCode !== getCountryCallingCode(country)) return undefined
  return parsed.number
}
