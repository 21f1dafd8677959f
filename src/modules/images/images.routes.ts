import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { parsePageQuery } from '../../common/pagination.ts'
import {
  EmptyObjectSchema,
  errorResponses,
  FilterHeadersSchema,
  PageQuerySchema,
} from '../../common/schemas.ts'
import { requireActor } from '../../plugins/auth.ts'
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
 * (`/images/private%2F12`), and both work (Decisions, 7): the encoded form arrives as one path
 * segment, the raw forms have routes of their own, hidden from the docs as duplicates.
 */
const ID_FORMS: Array<{
  path: string
  params: TSchema
  wireId: (params: Record<string, string>) => string
  hide: boolean
}> = [
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

const paramsOf = (request: FastifyRequest) => request.params as Record<string, string>

export const imagesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/images',
    {
      schema: {
        operationId: 'getImages',
        summary: "List images: the account's private images first (with a token), then public ones",
        tags,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: ImagePageSchema, ...errorResponses },
      },
      // Reachable without a token; the real list reports `X-Accepted-OAuth-Scopes: *` (api-facts 5.2).
      config: { auth: { public: true } },
    },
    async (request) =>
      images.listImages(app.db, request.actor, parsePageQuery(request.query), request.headers['x-filter']),
  )

  for (const form of ID_FORMS) {
    app.get(
      form.path,
      {
        schema: {
          operationId: form.hide ? undefined : 'getImage',
          summary: 'View an image; public images need no token',
          tags,
          params: form.params,
          response: { 200: ImageSchema, ...errorResponses },
          hide: form.hide,
        },
        config: { auth: readAuth },
      },
      async (request) => images.getImage(app.db, request.actor, form.wireId(paramsOf(request))),
    )
  }

  app.post(
    '/images',
    {
      schema: {
        operationId: 'createImage',
        summary: 'Capture a private image from a disk (ext3 or ext4) of one of your instances',
        description: 'The image is `creating` at first and becomes `available` shortly.',
        tags,
        body: CaptureImageBodySchema,
        response: { 200: ImageSchema, ...errorResponses },
      },
      config: { auth: { scopes: ['images:read_write', 'computes:read_only'] as Scope[] } },
    },
    async (request) => captureImage(app.db, app.clock, requireActor(request), request.body),
  )

  app.post(
    '/images/upload',
    {
      schema: {
        operationId: 'uploadImage',
        summary: 'Create a private image and the URL to PUT its gzip-compressed raw disk data to',
        description:
          'PUT the data to `upload_to` within 24 hours, with `Content-Type: application/octet-stream` and no token; at most 5 GB compressed.',
        tags,
        body: UploadImageBodySchema,
        response: { 200: UploadImageResponseSchema, ...errorResponses },
      },
      config: { auth: writeAuth },
    },
    async (request) =>
      uploads.createUpload(
        app.db,
        app.clock,
        requireActor(request),
        request.body,
        app.imageUploads.publicUrl,
      ),
  )

  for (const form of ID_FORMS) {
    app.put(
      form.path,
      {
        schema: {
          operationId: form.hide ? undefined : 'updateImage',
          summary: "Change a private image's label or description",
          tags,
          params: form.params,
          body: UpdateImageBodySchema,
          response: { 200: ImageSchema, ...errorResponses },
          hide: form.hide,
        },
        config: { auth: writeAuth },
      },
      async (request) =>
        images.updateImage(
          app.db,
          app.clock,
          requireActor(request),
          form.wireId(paramsOf(request)),
          request.body as Parameters<typeof images.updateImage>[4],
        ),
    )
  }

  for (const form of ID_FORMS) {
    app.delete(
      form.path,
      {
        schema: {
          operationId: form.hide ? undefined : 'deleteImage',
          summary: 'Delete a private image and its stored data',
          tags,
          params: form.params,
          response: { 200: EmptyObjectSchema, ...errorResponses },
          hide: form.hide,
        },
        config: { auth: writeAuth },
      },
      async (request) => {
        await images.deleteImage(
          app.db,
          app.blobs,
          app.clock,
          requireActor(request),
          form.wireId(paramsOf(request)),
        )
        return {}
      },
    )
  }
}
