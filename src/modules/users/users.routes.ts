import { categoryAuth } from '../../common/route-schemas.ts'
import { routeModule } from '../../common/route-table.ts'
import { contextOf } from '../../plugins/request-context.ts'
import {
  CreateUserBodySchema,
  UpdateUserBodySchema,
  UsernameParamsSchema,
  UserPageSchema,
  UserSchema,
} from './users.schemas.ts'
import * as users from './users.service.ts'

const { read, write } = categoryAuth('account')

/** The account's users (unrestricted users only), so restricted users can be set up through the API. */
export const usersRoutes = routeModule({ tags: ['Account users'], context: contextOf }, (api) => {
  api.getList('/account/users', {
    auth: read,
    operationId: 'getUsers',
    summary: "List the account's users",
    response: UserPageSchema,
    handler: (ctx, request) => users.listUsers(ctx, request.list),
  })

  api.get('/account/users/:username', {
    auth: read,
    operationId: 'getUser',
    summary: 'View a user',
    params: UsernameParamsSchema,
    response: UserSchema,
    handler: (ctx, request) => users.getUser(ctx, request.params),
  })

  api.post('/account/users', {
    auth: write,
    operationId: 'createUser',
    summary: 'Add a user to the account; a restricted user starts with no grants',
    body: CreateUserBodySchema,
    response: UserSchema,
    handler: (ctx, request) => users.createUser(ctx, request.body),
  })

  api.put('/account/users/:username', {
    auth: write,
    operationId: 'updateUser',
    summary: "Change a user's username, email or restricted flag",
    params: UsernameParamsSchema,
    body: UpdateUserBodySchema,
    response: UserSchema,
    handler: (ctx, request) => users.updateUser(ctx, request.params, request.body),
  })

  api.delete('/account/users/:username', {
    auth: write,
    operationId: 'deleteUser',
    summary: 'Delete a user and revoke their tokens',
    params: UsernameParamsSchema,
    handler: (ctx, request) => users.deleteUser(ctx, request.params),
  })
})
