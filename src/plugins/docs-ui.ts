import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

/** Headers of the reference's own answer that belong to its connection, not to the page. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date'])

/**
 * The interactive reference (`/docs`): `@fastify/swagger-ui` in an instance of its own, built on
 * the first request for it instead of at start. Registering it (with `@fastify/static`, which
 * walks the UI's files) was a tenth of a start; most starts never serve the page. The instance
 * answers under the same paths and shows this app's document; what it does not know is this
 * app's 404, with the error envelope (docs/decisions.md#the-reference-page-built-on-its-first-request).
 */
export function lazyDocsUi(app: FastifyInstance, options: FastifySwaggerUiOptions & { routePrefix: string }) {
  let ui: Promise<FastifyInstance> | undefined
  const build = async (): Promise<FastifyInstance> => {
    const { default: swaggerUi } = await import('@fastify/swagger-ui')
    // As the app routes: `/docs` and `/docs/` are one page.
    const side = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } })
    // The UI asks for `@fastify/swagger` by name; the document it shows is the app's own.
    await side.register(
      fp(
        async (instance: FastifyInstance) => {
          instance.decorate('swagger', app.swagger.bind(app))
        },
        { name: '@fastify/swagger' },
      ),
    )
    await side.register(swaggerUi, options)
    await side.ready()
    return side
  }
  const uiInstance = (): Promise<FastifyInstance> => {
    ui ??= build().catch((error: unknown) => {
      ui = undefined
      throw error
    })
    return ui
  }
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const page = await (await uiInstance()).inject({
      method: request.method as 'GET' | 'HEAD',
      url: request.url,
      headers: request.headers,
    })
    if (page.statusCode === 404) return reply.callNotFound()
    for (const [name, value] of Object.entries(page.headers)) {
      if (value !== undefined && !CONNECTION_HEADERS.has(name)) reply.header(name, value)
    }
    return reply.code(page.statusCode).send(page.rawPayload)
  }
  for (const url of docsUiPaths(options.routePrefix)) app.get(url, { schema: { hide: true } }, serve)
}

/**
 * The paths `@fastify/swagger-ui` routes (a test holds this list to the UI's own), routed in the
 * app as they were when the UI was registered in it: a path it lacks is a 404 without building
 * it, and another method on one it has is a 405.
 */
const docsUiPaths = (prefix: string): string[] => [
  prefix,
  `${prefix}/json`,
  `${prefix}/yaml`,
  `${prefix}/static/*`,
]
