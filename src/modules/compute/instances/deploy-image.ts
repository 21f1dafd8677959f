import type { RequestContext } from '../../../common/context.ts'

/** What instance create needs to know of the image it deploys. */
export interface DeployImage {
  /** The wire id (`compute/<slug>` or `private/<n>`), which the instance shows as its `image`. */
  id: string
  label: string
  /** MB. */
  size: number
  status: string
}

/**
 * Where instance create finds the image to deploy. The images domain implements it and
 * `src/routes.ts` hands it to the instance routes, so compute never imports images (images
 * depends on compute, for capture). `find` gives the image as the caller sees it (a public one, or a
 * private one of the caller's account, for which it checks the caller's read grant), or undefined.
 */
export interface DeployImages {
  find(ctx: RequestContext, wireId: string): Promise<DeployImage | undefined>
}
