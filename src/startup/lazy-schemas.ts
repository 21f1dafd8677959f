import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

/**
 * Route schemas compiled on first use instead of at start-up. Compiling every route's validators
 * (Ajv) and response serializers (fast-json-stringify) was most of the time to ready; a route
 * pays for its own the first time it is called, once per process.
 */

type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown }

/**
 * Makes `ajv.compile` lazy. The stand-in is called as Fastify calls Ajv's own functions (with the
 * parent data, so Ajv may replace a root value) and passes on the `errors` of each call. Schemas
 * with an `$id` compile at once: Ajv would refuse a second compile of the same id, and Fastify's
 * compiler looks them up by id before compiling.
 */
export function compileLazily(ajv: { compile: (schema: never) => unknown }): void {
  const compile = ajv.compile.bind(ajv) as (schema: unknown) => unknown
  ajv.compile = ((schema: { $id?: string }) => {
    if (typeof schema !== 'object' || schema === null || schema.$id !== undefined) return compile(schema)
    let compiled: Validate | undefined
    const validate: Validate = (data, context) => {
      compiled ??= compile(schema) as unknown as Validate
      const result = compiled(data, context)
      validate.errors = compiled.errors
      return result
    }
    // Fastify passes the parent data only to functions that look like Ajv's.
    validate.schemaEnv = true
    return validate
  }) as never
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Builds now the response serializers of one route that would otherwise wait for its first answer. */
    compileSerializers: (method: string, url: string) => void
  }
}

type Route = { method: string; url: string }

/**
 * Fastify's serializer compiler (fast-json-stringify), building each serializer on first use, and
 * `compile`, which builds a route's serializers ahead of that: a route whose first answer must not
 * wait (the upload's, which comes after the last byte of an image) has them built once the server
 * is ready.
 */
export function lazySerializers() {
  const buildSerializerFactory = SerializerSelector()
  const pending = new Map<string, Array<() => void>>()
  const keyOf = (route: Route) => `${route.method} ${route.url}`
  const factory = (externalSchemas: unknown, serializerOptions: unknown) => {
    const compileResponse = buildSerializerFactory(
      externalSchemas as Parameters<typeof buildSerializerFactory>[0],
      serializerOptions as Parameters<typeof buildSerializerFactory>[1],
    )
    return (route: Parameters<typeof compileResponse>[0]) => {
      let serialize: ((data: unknown) => string) | undefined
      const build = () => {
        serialize ??= compileResponse(route) as (data: unknown) => string
        return serialize
      }
      const key = keyOf(route as unknown as Route)
      pending.set(key, [...(pending.get(key) ?? []), build])
      return (data: unknown) => build()(data)
    }
  }
  const compile = (method: string, url: string) => {
    const key = keyOf({ method, url })
    for (const build of pending.get(key) ?? []) build()
    pending.delete(key)
  }
  return Object.assign(factory, { compile })
}
