// @ts-check
/**
 * A typedoc plugin linking the landing page to the file-layout viewer (apps/viewer).
 *
 * The viewer is built into `out/viewer/` by the docs script after typedoc has written the site (typedoc empties
 * `out/` first), so a markdown link to it would be a relative path typedoc cannot find at build time — a warning,
 * which fails the build. The landing page marks the words instead (`<span data-viewer-link>…</span>`) and this
 * plugin turns the mark into the link on the rendered root page; the docs link test checks that the target exists.
 */
import { PageEvent } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.renderer.on(PageEvent.END, (page) => {
    if (page.url !== 'index.html' || page.contents === undefined) return;
    page.contents = page.contents.replace(/<span data-viewer-link>([^<]*)<\/span>/g, '<a href="viewer/index.html">$1</a>');
  });
}
