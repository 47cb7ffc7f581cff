// @ts-check
/**
 * A typedoc plugin for the API site: readable module names for packages with more than one entry point, and no
 * file names linkified as hosts.
 *
 * typedoc's `packages` strategy makes a module per package and, when a package has several entry points, one child
 * module per entry file: `@parquetry/parquet-reader` › `index` › `fetchSource`, shown and searched as
 * `@parquetry/parquet-reader.index.fetchSource`. After the packages are merged this plugin
 * - merges each package's `index` module into the package's module (its exports are the package's main entry), and
 * - lifts every other entry module (`node`) to the top level under its import specifier
 *   (`@parquetry/parquet-reader/node`),
 * so names read as users import them: `@parquetry/parquet-reader.fetchSource`, `@parquetry/parquet-reader/node.fileSource`.
 * It runs on the project's REVIVE event before typedoc's own handlers (links, groups, categories) see the tree.
 */
import { Application, ReflectionKind } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  // Bare file names in comments ("Encryption.md §4.4") are not links: linkify only what has a scheme (https://…);
  // markdown-it's fuzzy linking made `http://Encryption.md` of them.
  // (set once the options are read: they are reset after the plugins load, and frozen later)
  app.on(Application.EVENT_BOOTSTRAP_END, () => {
    app.options.setValue('markdownItLoader', (/** @type {{ linkify: { set(o: object): void } }} */ parser) => {
      parser.linkify.set({ fuzzyLink: false });
    });
  });
  app.on(
    Application.EVENT_PROJECT_REVIVE,
    (project) => {
      for (const pkg of [...(project.children ?? [])]) {
        if (!pkg.kindOf(ReflectionKind.Module) || !pkg.children) continue;
        const entries = pkg.children.filter((c) => c.kindOf(ReflectionKind.Module));
        const index = entries.find((c) => c.name === 'index');
        if (!index || entries.length !== pkg.children.length) continue;
        // the package page shows the README; the entry's @packageDocumentation comment when there is none
        if (!pkg.comment && index.comment) pkg.comment = index.comment;
        const others = entries.filter((c) => c !== index);
        project.mergeReflections(index, pkg);
        for (const sub of others) {
          pkg.removeChild(sub);
          const siblings = project.reflectionChildren.get(pkg.id);
          const at = siblings.indexOf(sub.id);
          if (at >= 0) siblings.splice(at, 1);
          sub.name = `${pkg.name}/${sub.name}`;
          sub.parent = project;
          project.addChild(sub);
          project.reflectionChildren.get(project.id).push(sub.id);
        }
        delete pkg.groups;
        delete pkg.categories;
      }
      delete project.groups;
      delete project.categories;
    },
    // before LinkResolverPlugin, GroupPlugin (-100) and CategoryPlugin see the project; after MergeModuleWith (1e4)
    5000,
  );
}
