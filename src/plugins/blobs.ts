import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { BlobStore } from '../blobs/blob-store.ts'

declare module 'fastify' {
  interface FastifyInstance {
    blobs: BlobStore
  }
}

/** Decorates `app.blobs`: the filesystem store in the server, an in-memory one in tests. */
async function blobsPlugin(app: FastifyInstance, options: { store: BlobStore }) {
  app.decorate('blobs', options.store)
}

export const blobs = fp(blobsPlugin, { name: 'blobs' })
