import type { TSchema } from 'typebox'
import { sendPage } from '../../common/rendered-page-cache.ts'
import { routeModule, routeTable } from '../../common/route-table.ts'
import { countersOf } from '../../plugins/db.ts'
import { contextOf, publicContextOf } from '../../plugins/request-context.ts'
import type { Scope } from '../auth/scopes.ts'
import { captureImage } from './image-capture.service.ts'
import * as uploads from './image-uploads.service.ts'
import {
  CaptureImageBodySchema,
  ImageIdParamsSchema,
  ImagePageSchema,
  ImageSchema,
  PrivateImageParamsSchema,
  PublicImageParamsSchema,
  type UpdateImageBody,
  UpdateImageBodySchema,
  UploadImageBodySchema,
  UploadImageResponseSchema,
} from './images.schemas.ts'
import * as images from './images.service.ts'

const tags = ['Images']
const readAuth = { public: true, scopes: ['images:read_only'] as Scope[] }
const writeAuth = { scopes: ['images:read_write'] as Scope[] }

/**
 * An image id holds a slash. Clients send it raw (`/images/private/12`) or encoded
 * (`/images/private%2F12`), and both work (docs/decisions.md#image-ids-in-paths): the encoded
 * form arrives as one path segment, the raw forms have routes of their own, hidden from the docs
 * as duplicates.
 */
interface IdForm {
  path: string
  params: TSchema
  wireId: (params: Record<string, string>) => string
  hide: boolean
}

const ID_FORMS: IdForm[] = [
  { path: '/images/:imageId', params: ImageIdParamsSchema, wireId: (p) => String(p.imageId), hide: false },
  {
    path: '/images/compute/:slug',
    params: PublicImageParamsSchema,
    wireId: (p) => `compute/${p.slug}`,
    hide: true,
  },
  {
    path: '/images/private/:id',
    params: PrivateImageParamsSchema,
    wireId: (p) => `private/${p.id}`,
    hide: true,
  },
]

/** The image a request names, in whichever form it came. */
const idsOf = (form: IdForm, params: unknown): images.ImageIds => ({
  imageId: form.wireId(params as Record<string, string>),
})

/** What the schemas of a route in each id form share; only the encoded form is documented. */
const idFormSchema = (form: IdForm, operationId: string) => ({
  operationId: form.hide ? undefined : operationId,
  params: form.params,
  hide: form.hide,
})

export const imagesRoutes = routeModule({ tags, context: contextOf }, (api, app) => {
  const publicApi = routeTable(app, { tags, context: publicContextOf })

  // Reachable without a token; the real list reports `X-Accepted-OAuth-Scopes: *`
  // (docs/decisions.md#images-without-a-token).
  publicApi.getList('/images', {
    auth: { public: true },
    operationId: 'getImages',
    summary: "List images: the account's private images first (with a token), then public ones",
    response: ImagePageSchema,
    handler: async (ctx, request, reply) =>
      sendPage(
        reply,
        await images.listImagesPage(
          ctx,
          request.list,
          countersOf(reply.request),
          reply.server.vocabulary.laterFields,
        ),
      ),
  })

  // Each id form: view (public images need no token), change and delete.
  for (const form of ID_FORMS) {
    publicApi.get(form.path, {
      auth: readAuth,
      ...idFormSchema(form, 'getImage'),
      summary: 'View an image; public images need no token',
      response: ImageSchema,
      handler: (ctx, request) => images.getImage(ctx, idsOf(form, request.params)),
    })

    api.put(form.path, {
      auth: writeAuth,
      ...idFormSchema(form, 'updateImage'),
      summary: "Change a private image's label or description",
      body: UpdateImageBodySchema,
      response: ImageSchema,
      handler: (ctx, request) =>
        images.updateImage(ctx, idsOf(form, request.params), request.body as UpdateImageBody),
    })

    api.delete(form.path, {
      auth: writeAuth,
      ...idFormSchema(form, 'deleteImage'),
      summary: 'Delete a private image and its stored data',
      handler: (ctx, request) => images.deleteImage(ctx, idsOf(form, request.params), app.blobs),
    })
  }

  api.post('/images', {
    auth: { scopes: ['images:read_write', 'computes:read_only'] as Scope[] },
    operationId: 'createImage',
    summary: 'Capture a private image from a disk (ext3 or ext4) of one of your instances',
    description: 'The image is `creating` at first and becomes `available` shortly.',
    body: CaptureImageBodySchema,
    response: ImageSchema,
    handler: (ctx, request) => captureImage(ctx, request.body),
  })

  api.post('/images/upload', {
    auth: writeAuth,
    operationId: 'uploadImage',
    summary: 'Create a private image and the URL to PUT its gzip-compressed raw disk data to',
    description:
      'PUT the data to `upload_to` within 24 hours, with `Content-Type: application/octet-stream` and no token; at most 5 GB compressed.',
    body: UploadImageBodySchema,
    response: UploadImageResponseSchema,
    handler: (ctx, request) => uploads.createUpload(ctx, request.body, app.imageUploads),
  })
})
