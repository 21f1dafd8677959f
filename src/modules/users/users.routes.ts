import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parsePageQuery } from '../../common/pagination.ts'
import { categoryAuth, route } from '../../common/route-schemas.ts'
import { EmptyObjectSchema, PageQuerySchema } from '../../common/schemas.ts'
import { contextOf } from '../../plugins/request-context.ts'
import {
  CreateUserBodySchema,
  UpdateUserBodySchema,
  UsernameParamsSchema,
  UserPageSchema,
  UserSchema,
} from './users.schemas.ts'
import * as users from './users.service.ts'

const tags = ['Account users']
const { read, write } = categoryAuth('account')

/** The account's users (unrestricted users only), so restricted users can be set up through the API. */
export const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/account/users',
    route(
      read,
      { operationId: 'getUsers', summary: "List the account's users", tags, querystring: PageQuerySchema },
      UserPageSchema,
    ),
    async (request) => users.listUsers(contextOf(request), { page: parsePageQuery(request.query) }),
  )

  app.get(
    '/account/users/:username',
    route(
      read,
      { operationId: 'getUser', summary: 'View a user', tags, params: UsernameParamsSchema },
      UserSchema,
    ),
    async (request) => users.getUser(contextOf(request), { username: request.params.username }),
  )

  app.post(
    '/account/users',
    route(
      write,
      {
        operationId: 'createUser',
        summary: 'Add a user to the account; a restricted user starts with no grants',
        tags,
        body: CreateUserBodySchema,
      },
      UserSchema,
    ),
    async (request) => users.createUser(contextOf(request), request.body),
  )

  app.put(
    '/account/users/:username',
    route(
      write,
      {
        operationId: 'updateUser',
        summary: "Change a user's username, email or restricted flag",
        tags,
        params: UsernameParamsSchema,
        body: UpdateUserBodySchema,
      },
      UserSchema,
    ),
    async (request) =>
      users.updateUser(contextOf(request), { username: request.params.username }, request.body),
  )

  app.delete(
    '/account/users/:username',
    route(
      write,
      {
        operationId: 'deleteUser',
        summary: 'Delete a user and revoke their tokens',
        tags,
        params: UsernameParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await users.deleteUser(contextOf(request), { username: request.params.username })
      return {}
    },
  )
}
