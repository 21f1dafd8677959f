import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max'

/**
 * Phone numbers through libphonenumber-js with its full ("max") metadata, so a number is checked
 * against the real numbering plan of the country, not only its length.
 */
export function isCountryCode(isoCode: string): boolean {
  return isSupportedCountry(isoCode.toUpperCase())
}

/** The number in E.164 when it is a valid number of that country, else undefined. */
export function toE164(phoneNumber: string, isoCode: string): string | undefined {
  const country = isoCode.toUpperCase()
  if (!isSupportedCountry(country)) return undefined
  const parsed = parsePhoneNumberFromString(phoneNumber, country)
  if (parsed === undefined || !parsed.isValid() || parsed.country !== country) return undefined
  return parsed.number
}
