import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ErrorBodySchema, PAGE_QUERY_DOCUMENTED } from '../common/schemas.ts'
import { lazyDocsUi } from './docs-ui.ts'
import { SPEC_VERSION } from './headers.ts'

const TITLE = 'cloudplane: Cloud Infrastructure API v4'

/** Operation groups in the order of the API document: VPCs first, then the areas they build on. */
export const TAGS = [
  { name: 'VPCs', description: 'VPCs, their subnets and the IP addresses in them' },
  { name: 'Regions', description: 'Regions and what each one offers' },
  { name: 'Images', description: 'The public catalogue, and private images captured or uploaded' },
  { name: 'Profile', description: 'The acting user: tokens, SSH keys, two-factor, apps, devices, logins' },
  { name: 'Account users', description: "The account's users and their grants" },
  { name: 'Account events', description: 'What happened on the account, newest first' },
  { name: 'Account OAuth clients', description: 'Apps the account registered to log users in with OAuth' },
  { name: 'Compute types', description: 'Instance types' },
  {
    name: 'Compute instances',
    description: 'Instances, with their configs, interfaces and disks: what VPCs attach to',
  },
  { name: 'Scripts', description: "Scripts run as an instance is deployed: public ones and the account's" },
  { name: 'Load balancers', description: 'Load balancers with public addresses, in front of instances' },
  { name: 'Volumes', description: 'Block storage volumes, attached to instances of their region' },
  { name: 'Domains', description: 'DNS domains (zones) and their records' },
  { name: 'Account', description: "The account's contact information and its network transfer pool" },
]

/** Our mark: a cloud on the project's blue, as the tab icon and the reference's logo. */
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1f5fa8"/><path d="M19 45h27a9.5 9.5 0 0 0 1.6-18.9A14 14 0 0 0 21 28.3 8.4 8.4 0 0 0 19 45z" fill="#fff"/></svg>`
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 260 64" height="40"><rect width="64" height="64" rx="14" fill="#1f5fa8"/><path d="M19 45h27a9.5 9.5 0 0 0 1.6-18.9A14 14 0 0 0 21 28.3 8.4 8.4 0 0 0 19 45z" fill="#fff"/><text x="78" y="43" font-family="sans-serif" font-size="30" font-weight="600" fill="#fff">cloudplane</text></svg>`

type Paths = Record<string, Record<string, { tags?: string[] }>>

/** Paths grouped by their tag in TAGS order (stable within a tag), so the document reads like the reference. */
function orderPaths(paths: Paths, tags = TAGS): Paths {
  const rank = (item: Paths[string]) => {
    const tag = Object.values(item).find((op) => op.tags?.[0] !== undefined)?.tags?.[0]
    const index = tags.findIndex((t) => t.name === tag)
    return index === -1 ? tags.length : index
  }
  return Object.fromEntries(Object.entries(paths).sort(([, a], [, b]) => rank(a) - rank(b)))
}

/**
 * `page` and `page_size` are validated as text (parsePageQuery turns them into numbers and words
 * the 400s), but clients should see them as the integers they are.
 */
function documentPageQuery(querystring: unknown): unknown {
  const q = querystring as { properties?: Record<string, unknown> } | undefined
  if (q?.properties?.page === undefined && q?.properties?.page_size === undefined) return querystring
  const properties = { ...q.properties }
  for (const name of ['page', 'page_size'] as const) {
    if (properties[name] !== undefined) properties[name] = PAGE_QUERY_DOCUMENTED[name]
  }
  return { ...q, properties }
}

/**
 * The OpenAPI 3.1 document, generated from the route schemas: served at `/v4/openapi.json`, shown
 * at `/docs`, and exported to `openapi.json` by `npm run openapi:export`. Only the `/v4` copy of
 * each route is documented (paths relative to the `/v4` server URL); `/v4beta` mirrors it.
 */
/**
 * A group of operations outside the API roots (the emulator's control API): documented at its
 * own root, after the API's groups, with its own credential.
 */
export interface ExtraOperations {
  tag: { name: string; description: string }
  pathPrefix: string
  securitySchemes: Record<string, unknown>
}

async function openapiPlugin(app: FastifyInstance, options: { extra?: ExtraOperations }) {
  const { extra } = options
  const tags = extra ? [...TAGS, extra.tag] : TAGS
  const isExtra = (url: string) => extra !== undefined && url.startsWith(`${extra.pathPrefix}/`)
  app.addSchema(ErrorBodySchema)
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: TITLE,
        version: SPEC_VERSION,
        description:
          'An open-source implementation of the Cloud Infrastructure API v4. Errors are always `{"errors":[{"reason","field"?}]}`. Lists take `page` and `page_size` (25-500) and the `X-Filter` header.',
      },
      servers: [{ url: '/v4' }],
      tags,
      components: {
        securitySchemes: {
          personalAccessToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'A personal access token or OAuth token: `Authorization: Bearer <token>`',
          },
          ...extra?.securitySchemes,
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `schema${i}`) },
    transform: ({ schema, url, route }) => {
      if (isExtra(url)) return { schema: { ...schema, hide: schema?.hide === true }, url }
      const documented = url.startsWith('/v4/')
      const auth = route.config?.auth
      const transformed: Record<string, unknown> = { ...schema, hide: !documented || schema?.hide === true }
      if (schema?.querystring !== undefined) transformed.querystring = documentPageQuery(schema.querystring)
      if (auth !== undefined) {
        const scopes = (auth.scopes ?? []).map((scope) => app.vocabulary.toWire('scopes', scope))
        const bearer = { personalAccessToken: scopes }
        transformed.security = auth.public ? [{}, bearer] : [bearer]
        transformed['x-accepted-oauth-scopes'] = auth.scopes === undefined ? '*' : scopes.join(',')
      }
      return { schema: transformed, url: documented ? url.slice(3) : url }
    },
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject
      const { openapiObject } = document
      const paths = orderPaths(openapiObject.paths as Paths, tags)
      // Served at the server's root, not under `/v4`.
      for (const [path, item] of Object.entries(paths)) {
        if (isExtra(path)) paths[path] = { ...item, servers: [{ url: '/' }] } as unknown as Paths[string]
      }
      return { ...openapiObject, paths }
    },
  })
  lazyDocsUi(app, {
    routePrefix: '/docs',
    staticCSP: false,
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: '/docs' },
    theme: {
      title: TITLE,
      favicon: [
        { filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: FAVICON_SVG },
      ],
    },
  })
}

export const openapi = fp(openapiPlugin, { name: 'openapi' })

/** Registers `GET /openapi.json` under each API prefix; call inside the prefixed scope. */
export async function openapiRoute(app: FastifyInstance) {
  app.get('/openapi.json', { schema: { hide: true }, config: { auth: { public: true } } }, async () =>
    app.swagger(),
  )
}
