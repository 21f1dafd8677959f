import * as linode from '@linode/api-v4'
import type { TestApp } from '../helpers/app.ts'

/**
 * The client's functions, loosely typed: its declaration files re-export without file
 * extensions, which TypeScript's NodeNext resolution cannot follow, so its own types are lost.
 */
// biome-ignore lint/suspicious/noExplicitAny: results are checked by the tests' assertions
type ClientCall = (...args: any[]) => Promise<any>
export const client = linode as unknown as Record<string, ClientCall> & {
  baseRequest: { interceptors: { request: { use(fn: (config: RequestConfig) => RequestConfig): number } } }
}
interface RequestConfig {
  url?: string
  headers: { set(name: string, value: string): void }
}

const REAL_ORIGIN = 'https://api.linode.com'
let currentToken = ''

/** A client function by name, failing loudly if this version of the client lacks it. */
export function clientFunction(name: string): ClientCall {
  const fn = client[name]
  if (fn === undefined) throw new Error(`@linode/api-v4 has no ${name}`)
  return fn
}

/**
 * Points the official TypeScript client (`@linode/api-v4`) at a listening test app. The client
 * builds absolute URLs on the real API's origin, so the origin is swapped in a request
 * interceptor: exactly what a user does to aim it at cloudplane. The token is set the same way
 * (the client's own setToken stacks interceptors, so the first token would always win).
 */
export async function connectClient(api: TestApp, token: string): Promise<string> {
  const address = await api.app.listen({ port: 0, host: '127.0.0.1' })
  currentToken = token
  client.baseRequest.interceptors.request.use((config) => {
    if (config.url?.startsWith(REAL_ORIGIN)) config.url = address + config.url.slice(REAL_ORIGIN.length)
    config.headers.set('Authorization', `Bearer ${currentToken}`)
    return config
  })
  return address
}

export function useToken(token: string): void {
  currentToken = token
}

/** The API's `errors` array from a failed call: client-side validation errors or the server's body. */
export async function apiErrors(call: Promise<unknown>): Promise<Array<{ reason: string; field?: string }>> {
  try {
    await call
  } catch (error) {
    if (Array.isArray(error)) return error
    const body = (error as { response?: { data?: { errors?: Array<{ reason: string; field?: string }> } } })
      .response?.data
    if (body?.errors) return body.errors
    throw error
  }
  throw new Error('expected the call to fail')
}

export async function apiStatus(call: Promise<unknown>): Promise<number> {
  try {
    await call
    return 200
  } catch (error) {
    return (error as { response?: { status: number } }).response?.status ?? 0
  }
}
