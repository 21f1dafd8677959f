import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { categoryAuth, listInput, listRoute, route } from '../../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../../common/schemas.ts'
import { contextOf, publicContextOf } from '../../../plugins/request-context.ts'
import type { DeployImages } from '../instances/deploy-image.ts'
import {
  CreateScriptBodySchema,
  ScriptPageSchema,
  ScriptParamsSchema,
  ScriptSchema,
  UpdateScriptBodySchema,
} from './scripts.schemas.ts'
import * as scripts from './scripts.service.ts'

const tags = ['Scripts']
/** Public scripts need no token; a token shows the account's own too. */
const auth = categoryAuth('stackscripts')
const read = { public: true, ...auth.read }
const { write } = auth
const ids = (params: { scriptId: string }) => ({ scriptId: parseId(params.scriptId) })

export interface ScriptsRoutesOptions {
  /** Where a script's `images` are checked (the images domain, wired in src/routes.ts). */
  images: DeployImages
}

export const scriptsRoutes: FastifyPluginAsyncTypebox<ScriptsRoutesOptions> = async (app, options) => {
  app.get(
    '/compute/scripts',
    listRoute(
      read,
      {
        operationId: 'getScripts',
        summary: "List public scripts and, with a token, the account's own",
        tags,
      },
      ScriptPageSchema,
    ),
    async (request) => scripts.listScripts(publicContextOf(request), listInput(request)),
  )

  app.get(
    '/compute/scripts/:scriptId',
    route(
      read,
      {
        operationId: 'getScript',
        summary: 'View a script: a public one, or one of the account',
        tags,
        params: ScriptParamsSchema,
      },
      ScriptSchema,
    ),
    async (request) => scripts.getScript(publicContextOf(request), ids(request.params)),
  )

  app.post(
    '/compute/scripts',
    route(
      write,
      {
        operationId: 'createScript',
        summary: 'Create a script; its user-defined fields are read from its UDF tags',
        tags,
        body: CreateScriptBodySchema,
      },
      ScriptSchema,
    ),
    async (request) => scripts.createScript(contextOf(request), request.body, options.images),
  )

  app.put(
    '/compute/scripts/:scriptId',
    route(
      write,
      {
        operationId: 'updateScript',
        summary: 'Change a script of the account; a public script cannot be made private',
        tags,
        params: ScriptParamsSchema,
        body: UpdateScriptBodySchema,
      },
      ScriptSchema,
    ),
    async (request) =>
      scripts.updateScript(contextOf(request), ids(request.params), request.body, options.images),
  )

  app.delete(
    '/compute/scripts/:scriptId',
    route(
      write,
      {
        operationId: 'deleteScript',
        summary: 'Delete a private script of the account',
        tags,
        params: ScriptParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await scripts.deleteScript(contextOf(request), ids(request.params))
      return {}
    },
  )
}
