import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parsePageQuery } from '../../common/pagination.ts'
import { EmptyObjectSchema, errorResponses, PageQuerySchema } from '../../common/schemas.ts'
import { requireActor } from '../../plugins/auth.ts'
import type { Scope } from '../auth/scopes.ts'
import {
  CreateUserBodySchema,
  UpdateUserBodySchema,
  UsernameParamsSchema,
  UserPageSchema,
  UserSchema,
} from './users.schemas.ts'
import * as users from './users.service.ts'

const tags = ['Account users']
const read = { scopes: ['account:read_only'] as Scope[] }
const write = { scopes: ['account:read_write'] as Scope[] }

/** The account's users (unrestricted users only), so restricted users can be set up through the API. */
export const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/account/users',
    {
      schema: {
        operationId: 'getUsers',
        summary: "List the account's users",
        tags,
        querystring: PageQuerySchema,
        response: { 200: UserPageSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request) => users.listUsers(app.db, requireActor(request), parsePageQuery(request.query)),
  )

  app.get(
    '/account/users/:username',
    {
      schema: {
        operationId: 'getUser',
        summary: 'View a user',
        tags,
        params: UsernameParamsSchema,
        response: { 200: UserSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request) => users.getUser(app.db, requireActor(request), request.params.username),
  )

  app.post(
    '/account/users',
    {
      schema: {
        operationId: 'createUser',
        summary: 'Add a user to the account; a restricted user starts with no grants',
        tags,
        body: CreateUserBodySchema,
        response: { 200: UserSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) => users.createUser(app.db, app.clock, requireActor(request), request.body),
  )

  app.put(
    '/account/users/:username',
    {
      schema: {
        operationId: 'updateUser',
        summary: "Change a user's username, email or restricted flag",
        tags,
        params: UsernameParamsSchema,
        body: UpdateUserBodySchema,
        response: { 200: UserSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) =>
      users.updateUser(app.db, app.clock, requireActor(request), request.params.username, request.body),
  )

  app.delete(
    '/account/users/:username',
    {
      schema: {
        operationId: 'deleteUser',
        summary: 'Delete a user and revoke their tokens',
        tags,
        params: UsernameParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) => {
      await users.deleteUser(app.db, app.clock, requireActor(request), request.params.username)
      return {}
    },
  )
}
