import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type {
  FastifyPluginOptions,
  FastifyReply,
  FastifyRequest,
  HTTPMethods,
  preValidationHookHandler,
} from 'fastify'
import type { Static, TSchema } from 'typebox'
import type { RouteAuth } from '../plugins/auth.ts'
import type { IdParams } from './id-params.ts'
import type { ListQuery } from './pagination.ts'
import { listInput } from './route-schemas.ts'
import { EmptyObjectSchema, errorResponses, FilterHeadersSchema, PageQuerySchema } from './schemas.ts'

type App = Parameters<FastifyPluginAsyncTypebox>[0]
type Part = TSchema | undefined
/** A route's path params: numeric ids (`idParams(…)`, parsed for the handler) or any schema. */
type Params = IdParams<string> | Part
type Of<S extends Part> = S extends TSchema ? Static<S> : undefined
type ParamsOf<P extends Params> =
  P extends IdParams<infer K> ? Record<K, string> : Of<Exclude<P, IdParams<string>>>
type IdsOf<P extends Params> = P extends IdParams<infer K> ? Record<K, number> : undefined

/**
 * The request as a handler sees it: its parts typed by the route's schemas, and `ids`, the named
 * ids of a path declared with `idParams` (an id too large to exist is a 404 before the handler).
 */
export interface TableRequest<P extends Params, Q extends Part, B extends Part> {
  ids: IdsOf<P>
  params: ParamsOf<P>
  query: Of<Q>
  body: Of<B>
}

/** A list route's request: its page and X-Filter, as list services take them, beside the rest. */
export interface ListRequest<P extends Params> extends TableRequest<P, undefined, undefined> {
  list: ListQuery
}

/** What a handler answers: its response schema's value (or JSON sent on the reply); else it is ignored. */
type Answer<R extends Part> = R extends TSchema ? Static<R> | FastifyReply : unknown

/**
 * One route of a table: who may call it, how the OpenAPI document names it, the schemas of its
 * parts and the handler. Written in this order, so a route reads from top to bottom.
 */
interface RouteParts<P extends Params, Q extends Part, B extends Part, R extends Part> {
  auth: RouteAuth
  /** Absent on an alternative path form that the document leaves out (see `hide`). */
  operationId?: string
  summary: string
  description?: string
  /** Left out of the OpenAPI document: another path for a route that is documented. */
  hide?: boolean
  params?: P
  querystring?: Q
  body?: B
  /** The 200 answer. Left out, the route answers the empty object `{}` once the handler is done. */
  response?: R
  /** Runs before validation (boot and reboot read a missing body as `{}`). */
  preValidation?: preValidationHookHandler
}

export interface TableRoute<C, P extends Params, Q extends Part, B extends Part, R extends Part>
  extends RouteParts<P, Q, B, R> {
  handler: (ctx: C, request: TableRequest<P, Q, B>, reply: FastifyReply) => Promise<Answer<R>>
}

/** A list route: the page query and the X-Filter header in, a page (`response`) out. */
export interface ListRoute<C, P extends Params, R extends TSchema>
  extends Omit<RouteParts<P, undefined, undefined, R>, 'querystring' | 'body' | 'response'> {
  response: R
  handler: (ctx: C, request: ListRequest<P>, reply: FastifyReply) => Promise<Answer<R>>
}

/** Who a table's handlers act for: `contextOf` or `publicContextOf` (src/plugins/request-context.ts). */
export interface TableOptions<C> {
  tags: string[]
  context: (request: FastifyRequest) => C
}

/**
 * A route module (a Fastify plugin) whose routes `declare` adds to one table. The plugin's options
 * and the app reach `declare` too, for the ports and services wired in src/routes.ts.
 */
export function routeModule<C, Options extends FastifyPluginOptions = Record<never, never>>(
  options: TableOptions<C>,
  declare: (api: RouteTable<C>, app: App, options: Options) => void | Promise<void>,
): FastifyPluginAsyncTypebox<Options> {
  return async (app, pluginOptions) => declare(routeTable(app, options), app, pluginOptions)
}

export type RouteTable<C> = ReturnType<typeof routeTable<C>>

type AnyParts = RouteParts<Params, Part, Part, Part> & { headers?: TSchema }
type Handler<C> = (ctx: C, request: never, reply: FastifyReply) => Promise<unknown>

/**
 * The routes of one module, each declared with its method, path and everything that differs from
 * its neighbours; what they share is stated once: the tags, the context each handler receives,
 * the error envelope beside every 200 answer, and `{}` for a route with no response schema.
 * Routes are registered in the order they are declared, which is the order of the OpenAPI document.
 */
export function routeTable<C>(app: App, options: TableOptions<C>) {
  const add = (method: HTTPMethods, url: string, parts: AnyParts, handler: Handler<C>, list: boolean) => {
    const { auth, preValidation, response } = parts
    const ids = isIdParams(parts.params) ? parts.params : undefined
    app.route({
      method,
      url,
      schema: {
        ...documented({ ...parts, params: ids?.schema ?? parts.params }, options.tags),
        response: { 200: response ?? EmptyObjectSchema, ...errorResponses },
      },
      config: { auth },
      ...(preValidation && { preValidation }),
      handler: async (request, reply) => {
        const { params, query, body } = request as FastifyRequest<{ Params: Record<string, string> }>
        const input = {
          ids: ids?.ids(params),
          params,
          query,
          body,
          ...(list && { list: listInput(request as Parameters<typeof listInput>[0]) }),
        }
        const answer = await handler(options.context(request), input as never, reply)
        return response === undefined ? {} : answer
      },
    })
  }
  /** GET, POST, PUT or DELETE of one route; the schemas given type the handler's request. */
  const method =
    (name: HTTPMethods) =>
    <
      P extends Params = undefined,
      Q extends Part = undefined,
      B extends Part = undefined,
      R extends Part = undefined,
    >(
      url: string,
      { handler, ...parts }: TableRoute<C, P, Q, B, R>,
    ) =>
      add(name, url, parts, handler, false)
  return {
    get: method('GET'),
    /** GET of a paged list: the page query and the X-Filter header in, a page (`response`) out. */
    getList: <P extends Params = undefined, R extends TSchema = TSchema>(
      url: string,
      { handler, ...parts }: ListRoute<C, P, R>,
    ) => {
      const listParts = { ...parts, querystring: PageQuerySchema, headers: FilterHeadersSchema }
      add('GET', url, listParts, handler, true)
    },
    post: method('POST'),
    put: method('PUT'),
    delete: method('DELETE'),
  }
}

function isIdParams(params: Params): params is IdParams<string> {
  return params !== undefined && 'ids' in params && 'schema' in params
}

/** The schema keys the document shows, in the order it has always shown them; absent ones left out. */
function documented(parts: AnyParts, tags: string[]) {
  const { operationId, summary, description, params, querystring, headers, body, hide } = parts
  const shown = { operationId, summary, description, tags, params, querystring, headers, body, hide }
  return Object.fromEntries(Object.entries(shown).filter(([, value]) => value !== undefined))
}
