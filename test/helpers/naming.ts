import { vocabularyFor } from '../../src/vocabulary/vocabulary.ts'
import { testNaming } from './app.ts'

/**
 * The names a test sends and expects in the naming the test apps are built with
 * (CLOUDPLANE_TEST_NAMING), for helpers and suites that run in both. Suites asserting what the
 * real service's words are write them out literally instead.
 */
export const testVocabulary = () => vocabularyFor(testNaming())

/** `/v4/compute/instances/1` as the test app serves it. */
export function wirePath(path: string): string {
  return testVocabulary().toWire('apiUrl', path)
}

/** `compute/debian12` as the test app names it. */
export function wireImageId(id: string): string {
  return testVocabulary().toWire('imageId', id)
}
