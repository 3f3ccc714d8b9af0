import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  specifiedDirectives,
  isObjectType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
} from 'graphql';
import type { Catalog, CatalogField } from '../storage/catalog';
import type { ElementKind } from '../storage/database-types';
import type { ElementRow } from '../storage/element-query/element-row';
import { readableKinds, type ElementScope } from '../model/element-scope';
import { mimeTypeOf, extensionOf } from '../model/file-kinds';
import {
  assetArguments,
  categoryArguments,
  entryArguments,
  globalSetArguments,
  matrixBlockArguments,
  tagArguments,
  transformArguments,
  userArguments,
} from './arguments';
import { CONTENT_DIRECTIVES, withDirectives } from './directives/directives';
import { DateTimeScalar, NumberScalar } from './scalars';
import type { RequestContext } from './request-context';
import {
  RELATION_KINDS,
  assetUrl,
  concreteTypeName,
  countRelated,
  elementStatus,
  escapeHtml,
  fullName,
} from './field-values';
import { ESSENTIAL_COLUMNS, columnsFor } from './row-columns';

type Field = GraphQLFieldConfig<ElementRow, RequestContext, any>;
type Fields = GraphQLFieldConfigMap<ElementRow, RequestContext>;

/** Costs for `maxGraphqlComplexity`, the CMS's constants: a plain field, a field that runs a query, an eager-loaded field, a CPU-heavy field. */
export const COMPLEXITY = { simple: 1, query: 10, eagerLoad: 25, cpuHeavy: 200 } as const;

const date = (value: string | null | undefined) => (value ? new Date(value) : null);

/** Marks fields whose resolvers read only the essential columns of their row (row-columns.ts); the others read all. */
const E = ESSENTIAL_COLUMNS;

/** What the schema lets a client query, by kind. */
/** The element kinds a scope can read (kept under this name for callers of the schema builder). */
export const queryableKinds = readableKinds;

/**
 * Builds the GraphQL schema one client sees: only the queries, types, fields and arguments its scope allows.
 * Concrete types are named like the CMS names them (`news_article_Entry`, `images_Asset`, `topics_Category`,
 * `blogTags_Tag`, `siteInfo_GlobalSet`, `contentBlocks_quote_BlockType`, `User`).
 */
export function buildGraphqlSchema(catalog: Catalog, scope: ElementScope): GraphQLSchema {
  const can = queryableKinds(scope);
  const needsAssets = can.asset || can.user;
  const types: GraphQLNamedType[] = [];

  const elementFields = (): Fields => ({
    id: { type: GraphQLID, description: 'The ID of the entity', extensions: E, resolve: (row) => String(row.id) },
    uid: { type: GraphQLString, description: 'The UID of the entity' },
    _count: {
      type: GraphQLInt,
      description: 'Return a number of related elements for a field.',
      args: {
        field: {
          type: new GraphQLNonNull(GraphQLString),
          description: 'The handle of the field that holds the relations.',
        },
      },
      extensions: { complexity: COMPLEXITY.eagerLoad, ...E },
      resolve: (row, args: { field: string }, ctx) => countRelated(row, args.field, ctx),
    },
    title: { type: GraphQLString, description: 'The element’s title.', extensions: E },
    slug: { type: GraphQLString, description: 'The element’s slug.' },
    uri: {
      type: GraphQLString,
      description: 'The element’s URI.',
      extensions: E,
      resolve: (row) => (row.uri === '__home__' ? '' : row.uri),
    },
    enabled: { type: GraphQLBoolean, description: 'Whether the element is enabled or not.' },
    archived: { type: GraphQLBoolean, description: 'Whether the element is archived or not.' },
    siteId: { type: GraphQLInt, description: 'The ID of the site the element is associated with.', extensions: E },
    searchScore: {
      type: GraphQLString,
      description: 'The element’s search score, if the `search` parameter was used when querying for the element.',
      extensions: E,
      resolve: (row) => (row.searchScore === null ? null : String(row.searchScore)),
    },
    trashed: { type: GraphQLBoolean, description: 'Whether the element has been soft-deleted or not.' },
    status: { type: GraphQLString, description: 'The element’s status.', resolve: (row) => elementStatus(row) },
    dateCreated: {
      type: DateTimeScalar,
      description: 'The date the element was created.',
      resolve: (row) => date(row.dateCreated),
    },
    dateUpdated: {
      type: DateTimeScalar,
      description: 'The date the element was last updated.',
      resolve: (row) => date(row.dateUpdated),
    },
  });

  const structureFields = (): Fields => ({
    lft: { type: GraphQLInt, description: 'The element’s left position within its structure.', extensions: E },
    rgt: { type: GraphQLInt, description: 'The element’s right position within its structure.', extensions: E },
    level: { type: GraphQLInt, description: 'The element’s level within its structure', extensions: E },
    root: { type: GraphQLInt, description: 'The element’s structure’s root ID' },
    structureId: { type: GraphQLInt, description: 'The element’s structure ID.', extensions: E },
  });

  const ElementInterface = new GraphQLInterfaceType({
    name: 'ElementInterface',
    description: 'This is the interface implemented by all elements.',
    fields: elementFields,
    resolveType: (row: ElementRow) => concreteTypeName(row, catalog),
  });

  let EntryInterface: GraphQLInterfaceType | null = null;
  let AssetInterface: GraphQLInterfaceType | null = null;
  let UserInterface: GraphQLInterfaceType | null = null;
  let CategoryInterface: GraphQLInterfaceType | null = null;
  let TagInterface: GraphQLInterfaceType | null = null;
  let GlobalSetInterface: GraphQLInterfaceType | null = null;

  const relationInterface = (kind: ElementKind): GraphQLInterfaceType | null => {
    switch (kind) {
      case 'entry':
        return EntryInterface;
      case 'asset':
        return AssetInterface;
      case 'user':
        return UserInterface;
      case 'category':
        return CategoryInterface;
      case 'tag':
        return TagInterface;
      default:
        return null;
    }
  };
  const entryArgs = () => entryArguments(can.user);
  const relationArgs = (kind: ElementKind) =>
    (
      ({
        entry: entryArgs,
        asset: assetArguments,
        user: userArguments,
        category: categoryArguments,
        tag: tagArguments,
      }) as Record<string, () => any>
    )[kind]!();

  /** Fields of a field layout, as GraphQL fields of a concrete type. */
  const customFields = (layout: CatalogField[], ownerName: string): Fields => {
    const fields: Fields = {};
    for (const field of layout) {
      const config = customField(field, ownerName);
      if (config) fields[field.handle] = config;
    }
    return fields;
  };

  const customField = (field: CatalogField, ownerName: string): Field | null => {
    const value = (row: ElementRow) => row.content[field.handle] ?? null;
    switch (field.type) {
      case 'PlainText':
      case 'RichText':
        return { type: GraphQLString, description: field.name, extensions: E, resolve: value };
      case 'Number':
        return { type: NumberScalar, description: field.name, extensions: E, resolve: value };
      case 'Date':
        return {
          type: DateTimeScalar,
          description: field.name,
          extensions: E,
          resolve: (row) => date(value(row) as string | null),
        };
      case 'Lightswitch':
        return { type: GraphQLBoolean, description: field.name, extensions: E, resolve: (row) => value(row) ?? false };
      case 'Matrix': {
        const blockTypes = blockTypeObjects.get(field.id) ?? [];
        if (blockTypes.length === 0) return null;
        return {
          type: new GraphQLList(MatrixBlockInterface),
          description: field.name,
          args: matrixBlockArguments(),
          extensions: { complexity: COMPLEXITY.eagerLoad, ...E },
          resolve: (row, args, ctx, info) =>
            ctx.blocks(row.id, field.id, row.siteId, { ...args, status: args.status ?? ['enabled'] }, columnsFor(info)),
        };
      }
      default: {
        const kind = RELATION_KINDS[field.type];
        if (!kind) return null;
        const target = relationInterface(kind);
        if (!target) return null;
        void ownerName;
        return {
          type: new GraphQLList(target),
          description: field.name,
          args: relationArgs(kind),
          extensions: { complexity: COMPLEXITY.eagerLoad, ...E },
          resolve: (row, args, ctx, info) => ctx.related(kind, row.id, field.id, row.siteId, args, columnsFor(info)),
        };
      }
    }
  };

  const matrixBlockFields = (): Fields => ({
    ...elementFields(),
    fieldId: { type: GraphQLInt, description: 'The ID of the field that owns the matrix block.', extensions: E },
    ownerId: { type: GraphQLInt, description: 'The ID of the element that owns the matrix block.', extensions: E },
    typeId: { type: GraphQLInt, description: 'The ID of the matrix block’s type.', extensions: E },
    typeHandle: {
      type: GraphQLString,
      description: 'The handle of the matrix block’s type.',
      extensions: E,
      resolve: (row) => catalog.blockTypesById.get(row.typeId!)?.handle ?? null,
    },
    sortOrder: {
      type: GraphQLInt,
      description: 'The sort order of the matrix block within the owner element field.',
      extensions: E,
    },
  });
  const MatrixBlockInterface: GraphQLInterfaceType = new GraphQLInterfaceType({
    name: 'MatrixBlockInterface',
    description: 'This is the interface implemented by all matrix blocks.',
    interfaces: [ElementInterface],
    fields: matrixBlockFields,
    resolveType: (row: ElementRow) => concreteTypeName(row, catalog),
  });

  // Block types are created up front (their fields stay lazy) so that the schema lists them all.
  const blockTypeObjects = new Map<number, GraphQLObjectType[]>();
  for (const field of catalog.fieldsById.values()) {
    if (field.type !== 'Matrix') continue;
    blockTypeObjects.set(
      field.id,
      catalog.blockTypesOf(field.id).map((blockType) => {
        const name = `${field.handle}_${blockType.handle}_BlockType`;
        const type: GraphQLObjectType = new GraphQLObjectType({
          name,
          description: `${field.name}: ${blockType.name}`,
          interfaces: () => [ElementInterface, MatrixBlockInterface],
          fields: () => ({ ...matrixBlockFields(), ...customFields(blockType.fields, name) }),
        });
        return type;
      }),
    );
  }

  // ------------------------------------------------------------------ assets
  if (needsAssets) {
    const assetFields = (): Fields => ({
      ...elementFields(),
      volumeId: { type: GraphQLInt, description: 'The ID of the volume that the asset belongs to.', extensions: E },
      folderId: { type: GraphQLInt, description: 'The ID of the folder that the asset belongs to.', extensions: E },
      filename: { type: GraphQLString, description: 'The filename of the asset file.', extensions: E },
      extension: {
        type: GraphQLString,
        description: 'The file extension for the asset file.',
        extensions: E,
        resolve: (row) => extensionOf(row.filename!),
      },
      hasFocalPoint: {
        type: GraphQLBoolean,
        description: 'Whether a user-defined focal point is set on the asset.',
        extensions: E,
        resolve: (row) => row.focalPoint !== null && row.focalPoint !== undefined,
      },
      focalPoint: {
        type: new GraphQLList(GraphQLFloat),
        description: 'The focal point represented as an array with `x` and `y` keys, or null if it’s not an image.',
        resolve: (row) =>
          row.kindOfFile !== 'image' ? null : row.focalPoint ? row.focalPoint.split(';').map(Number) : [0.5, 0.5],
      },
      kind: { type: GraphQLString, description: 'The file kind.', resolve: (row) => row.kindOfFile },
      size: { type: GraphQLString, description: 'The file size in bytes.', resolve: (row) => String(row.size) },
      height: { type: GraphQLInt, description: 'The height in pixels or null if it’s not an image.', extensions: E },
      width: { type: GraphQLInt, description: 'The width in pixels or null if it’s not an image.', extensions: E },
      img: {
        type: GraphQLString,
        description: 'An `<img>` tag based on this asset.',
        resolve: (row, _args, ctx) =>
          row.kindOfFile !== 'image'
            ? null
            : `<img src="${escapeHtml(ctx.urls.assetUrl(row, null) ?? '')}"${row.width ? ` width="${row.width}"` : ''}${row.height ? ` height="${row.height}"` : ''} alt="${escapeHtml(row.title ?? '')}">`,
      },
      url: {
        type: GraphQLString,
        description: 'The full URL of the asset. This field accepts the same fields as the `transform` directive.',
        args: transformArguments(),
        extensions: { complexity: COMPLEXITY.simple, ...E },
        resolve: (row, args, ctx, info) => assetUrl(row, args, ctx, info),
      },
      mimeType: {
        type: GraphQLString,
        description: 'The file’s MIME type, if it can be determined.',
        extensions: E,
        resolve: (row) => mimeTypeOf(row.filename!),
      },
      path: {
        type: GraphQLString,
        description: 'The asset’s path in the volume.',
        extensions: E,
        resolve: (row) => `${row.folderPath ?? ''}${row.filename}`,
      },
      dateModified: {
        type: DateTimeScalar,
        description: 'The date the asset file was last modified.',
        resolve: (row) => date(row.dateModified),
      },
    });
    AssetInterface = new GraphQLInterfaceType({
      name: 'AssetInterface',
      description: 'This is the interface implemented by all assets.',
      interfaces: [ElementInterface],
      fields: assetFields,
      resolveType: (row: ElementRow) => concreteTypeName(row, catalog),
    });
    for (const volumeId of scope.volumeIds ?? []) {
      const volume = catalog.volumesById.get(volumeId)!;
      const AssetsInterface = AssetInterface;
      types.push(
        new GraphQLObjectType({
          name: `${volume.handle}_Asset`,
          description: `Assets of the ${volume.name} volume`,
          interfaces: () => [ElementInterface, AssetsInterface],
          fields: () => ({ ...assetFields(), ...customFields(volume.fields, `${volume.handle}_Asset`) }),
        }),
      );
    }
  }

  // ------------------------------------------------------------------ users
  if (can.user) {
    const userFields = (): Fields => ({
      ...elementFields(),
      photo: {
        type: AssetInterface!,
        description: 'The user’s photo.',
        extensions: { complexity: COMPLEXITY.eagerLoad, ...E },
        resolve: (row, _args, ctx, info) =>
          row.photoId ? ctx.byId('asset', row.photoId, row.siteId, columnsFor(info)) : null,
      },
      friendlyName: {
        type: GraphQLString,
        description: 'The user’s first name or username.',
        extensions: E,
        resolve: (row) => row.firstName || row.username,
      },
      fullName: {
        type: GraphQLString,
        description: 'The user’s full name.',
        extensions: E,
        resolve: (row) => fullName(row),
      },
      name: {
        type: GraphQLString,
        description: 'The user’s full name or username.',
        extensions: E,
        resolve: (row) => fullName(row) ?? row.username,
      },
      preferences: {
        type: GraphQLString,
        description: 'The user’s preferences.',
        extensions: E,
        resolve: (row) => row.preferences ?? '{}',
      },
      preferredLanguage: { type: GraphQLString, description: 'The user’s preferred language.', extensions: E },
      username: { type: GraphQLString, description: 'The username.', extensions: E },
      firstName: { type: GraphQLString, description: 'The user’s first name.', extensions: E },
      lastName: { type: GraphQLString, description: 'The user’s last name.', extensions: E },
      email: { type: GraphQLString, description: 'The user’s email.', extensions: E },
    });
    UserInterface = new GraphQLInterfaceType({
      name: 'UserInterface',
      description: 'This is the interface implemented by all users.',
      interfaces: [ElementInterface],
      fields: userFields,
      resolveType: () => 'User',
    });
    const UsersInterface = UserInterface;
    types.push(
      new GraphQLObjectType({
        name: 'User',
        description: 'A user',
        interfaces: () => [ElementInterface, UsersInterface],
        fields: () => ({ ...userFields(), ...customFields(catalog.userFields, 'User') }),
      }),
    );
  }

  // ------------------------------------------------------------------ entries
  if (can.entry) {
    const entryFields = (): Fields => ({
      ...elementFields(),
      ...structureFields(),
      sectionId: { type: GraphQLInt, description: 'The ID of the section that contains the entry.', extensions: E },
      sectionHandle: {
        type: GraphQLString,
        description: 'The handle of the section that contains the entry.',
        extensions: E,
        resolve: (row) => catalog.sectionsById.get(row.sectionId!)?.handle ?? null,
      },
      typeId: { type: GraphQLInt, description: 'The ID of the entry type that contains the entry.', extensions: E },
      typeHandle: {
        type: GraphQLString,
        description: 'The handle of the entry type that contains the entry.',
        extensions: E,
        resolve: (row) => catalog.entryTypesById.get(row.typeId!)?.handle ?? null,
      },
      authorId: { type: GraphQLInt, description: 'The ID of the author of this entry.' },
      ...(can.user
        ? {
            author: {
              type: UserInterface!,
              description: 'The entry’s author.',
              extensions: { complexity: COMPLEXITY.eagerLoad },
              resolve: (row: ElementRow, _a: unknown, ctx: RequestContext, info: GraphQLResolveInfo) =>
                row.authorId ? ctx.byId('user', row.authorId, row.siteId, columnsFor(info)) : null,
            },
          }
        : {}),
      postDate: {
        type: DateTimeScalar,
        description: 'The entry’s post date.',
        extensions: E,
        resolve: (row) => date(row.postDate),
      },
      expiryDate: {
        type: DateTimeScalar,
        description: 'The expiry date of the entry.',
        resolve: (row) => date(row.expiryDate),
      },
      children: {
        type: new GraphQLList(EntryInterface!),
        description:
          'The entry’s children, if the section is a structure. Accepts the same arguments as the `entries` query.',
        args: entryArgs(),
        extensions: { complexity: COMPLEXITY.eagerLoad, ...E },
        resolve: (row, args, ctx, info) =>
          row.structureId === null ? [] : ctx.children('entry', row.id, row.siteId, args, columnsFor(info)),
      },
      parent: {
        type: EntryInterface!,
        description: 'The entry’s parent, if the section is a structure.',
        extensions: { complexity: COMPLEXITY.eagerLoad, ...E },
        resolve: (row, _args, ctx, info) =>
          row.structureId === null || (row.level ?? 0) <= 1
            ? null
            : ctx.parent('entry', row.id, row.siteId, columnsFor(info)),
      },
      url: {
        type: GraphQLString,
        description: 'The element’s full URL',
        extensions: E,
        resolve: (row, _args, ctx) => ctx.urls.elementUrl(row),
      },
    });
    EntryInterface = new GraphQLInterfaceType({
      name: 'EntryInterface',
      description: 'This is the interface implemented by all entries.',
      interfaces: [ElementInterface],
      fields: entryFields,
      resolveType: (row: ElementRow) => concreteTypeName(row, catalog),
    });
    const EntriesInterface = EntryInterface;
    for (const typeId of scope.entryTypeIds ?? []) {
      const type = catalog.entryTypesById.get(typeId)!;
      const section = catalog.sectionsById.get(type.sectionId)!;
      types.push(
        new GraphQLObjectType({
          name: `${section.handle}_${type.handle}_Entry`,
          description: `Entries of type “${type.name}” in the “${section.name}” section`,
          interfaces: () => [ElementInterface, EntriesInterface],
          fields: () => ({ ...entryFields(), ...customFields(type.fields, `${section.handle}_${type.handle}_Entry`) }),
        }),
      );
    }
  }

  // ------------------------------------------------------------------ categories
  if (can.category) {
    const categoryFields = (): Fields => ({
      ...elementFields(),
      ...structureFields(),
      groupId: { type: GraphQLInt, description: 'The ID of the group that contains the category.', extensions: E },
      groupHandle: {
        type: GraphQLString,
        description: 'The handle of the group that contains the category.',
        extensions: E,
        resolve: (row) => catalog.categoryGroupsById.get(row.groupId!)?.handle ?? null,
      },
      children: {
        type: new GraphQLList(CategoryInterface!),
        description: 'The category’s children. Accepts the same arguments as the `categories` query.',
        args: categoryArguments(),
        extensions: { complexity: COMPLEXITY.eagerLoad, ...E },
        resolve: (row, args, ctx, info) => ctx.children('category', row.id, row.siteId, args, columnsFor(info)),
      },
      parent: {
        type: CategoryInterface!,
        description: 'The category’s parent.',
        extensions: { complexity: COMPLEXITY.eagerLoad, ...E },
        resolve: (row, _args, ctx, info) =>
          (row.level ?? 0) <= 1 ? null : ctx.parent('category', row.id, row.siteId, columnsFor(info)),
      },
      url: {
        type: GraphQLString,
        description: 'The element’s full URL',
        extensions: E,
        resolve: (row, _args, ctx) => ctx.urls.elementUrl(row),
      },
    });
    CategoryInterface = new GraphQLInterfaceType({
      name: 'CategoryInterface',
      description: 'This is the interface implemented by all categories.',
      interfaces: [ElementInterface],
      fields: categoryFields,
      resolveType: (row: ElementRow) => concreteTypeName(row, catalog),
    });
    const CategoriesInterface = CategoryInterface;
    for (const groupId of scope.categoryGroupIds ?? []) {
      const group = catalog.categoryGroupsById.get(groupId)!;
      types.push(
        new GraphQLObjectType({
          name: `${group.handle}_Category`,
          description: `Categories of the ${group.name} group`,
          interfaces: () => [ElementInterface, CategoriesInterface],
          fields: () => ({ ...categoryFields(), ...customFields(group.fields, `${group.handle}_Category`) }),
        }),
      );
    }
  }

  // ------------------------------------------------------------------ tags
  if (can.tag) {
    const tagFields = (): Fields => ({
      ...elementFields(),
      groupId: { type: GraphQLInt, description: 'The ID of the group that contains the tag.', extensions: E },
      groupHandle: {
        type: GraphQLString,
        description: 'The handle of the group that contains the tag.',
        extensions: E,
        resolve: (row) => catalog.tagGroupsById.get(row.groupId!)?.handle ?? null,
      },
    });
    TagInterface = new GraphQLInterfaceType({
      name: 'TagInterface',
      description: 'This is the interface implemented by all tags.',
      interfaces: [ElementInterface],
      fields: tagFields,
      resolveType: (row: ElementRow) => concreteTypeName(row, catalog),
    });
    const TagsInterface = TagInterface;
    for (const groupId of scope.tagGroupIds ?? []) {
      const group = catalog.tagGroupsById.get(groupId)!;
      types.push(
        new GraphQLObjectType({
          name: `${group.handle}_Tag`,
          description: `Tags of the ${group.name} group`,
          interfaces: () => [ElementInterface, TagsInterface],
          fields: () => ({ ...tagFields(), ...customFields(group.fields, `${group.handle}_Tag`) }),
        }),
      );
    }
  }

  // ------------------------------------------------------------------ global sets
  if (can.globalset) {
    const globalSetFields = (): Fields => ({
      ...elementFields(),
      name: { type: GraphQLString, description: 'The name of the global set.', extensions: E },
      handle: { type: GraphQLString, description: 'The handle of the global set.', extensions: E },
    });
    GlobalSetInterface = new GraphQLInterfaceType({
      name: 'GlobalSetInterface',
      description: 'This is the interface implemented by all global sets.',
      interfaces: [ElementInterface],
      fields: globalSetFields,
      resolveType: (row: ElementRow) => concreteTypeName(row, catalog),
    });
    const GlobalSetsInterface = GlobalSetInterface;
    for (const setId of scope.globalSetIds ?? []) {
      const set = catalog.globalSetsById.get(setId)!;
      types.push(
        new GraphQLObjectType({
          name: `${set.handle}_GlobalSet`,
          description: set.name,
          interfaces: () => [ElementInterface, GlobalSetsInterface],
          fields: () => ({ ...globalSetFields(), ...customFields(set.fields, `${set.handle}_GlobalSet`) }),
        }),
      );
    }
  }

  // ------------------------------------------------------------------ queries
  const queryFields: Fields = {
    ping: { type: GraphQLString, description: 'This query is used to test API connectivity.', resolve: () => 'pong' },
  };
  const addQueries = (
    kind: ElementKind,
    plural: string,
    single: string,
    type: GraphQLOutputType | null,
    args: () => any,
    what: string,
  ) => {
    if (!type) return;
    queryFields[plural] = {
      type: new GraphQLList(type),
      args: args(),
      description: `This query is used to query for ${what}.`,
      extensions: { complexity: COMPLEXITY.query },
      resolve: (_root, a, ctx, info) => ctx.engine.find(kind, a, ctx.scope, ctx.query, undefined, columnsFor(info)),
    };
    queryFields[single] = {
      type,
      args: args(),
      description: `This query is used to query for a single ${what.replace(/s$/, '').replace(/ie$/, 'y')}.`,
      extensions: { complexity: COMPLEXITY.query },
      resolve: async (_root, a, ctx, info) =>
        (await ctx.engine.find(kind, { ...a, limit: 1 }, ctx.scope, ctx.query, undefined, columnsFor(info)))[0] ?? null,
    };
  };
  if (can.asset) addQueries('asset', 'assets', 'asset', AssetInterface, assetArguments, 'assets');
  if (can.entry) addQueries('entry', 'entries', 'entry', EntryInterface, entryArgs, 'entries');
  if (can.globalset)
    addQueries('globalset', 'globalSets', 'globalSet', GlobalSetInterface, globalSetArguments, 'global sets');
  if (can.user) addQueries('user', 'users', 'user', UserInterface, userArguments, 'users');
  if (can.tag) addQueries('tag', 'tags', 'tag', TagInterface, tagArguments, 'tags');
  if (can.category)
    addQueries('category', 'categories', 'category', CategoryInterface, categoryArguments, 'categories');

  // Block types of the matrix fields that the allowed layouts carry.
  const allowedLayouts: CatalogField[][] = [
    ...[...(scope.entryTypeIds ?? [])].map((id) => catalog.entryTypesById.get(id)?.fields ?? []),
    ...(needsAssets ? [...(scope.volumeIds ?? [])].map((id) => catalog.volumesById.get(id)?.fields ?? []) : []),
    ...[...(scope.categoryGroupIds ?? [])].map((id) => catalog.categoryGroupsById.get(id)?.fields ?? []),
    ...[...(scope.tagGroupIds ?? [])].map((id) => catalog.tagGroupsById.get(id)?.fields ?? []),
    ...[...(scope.globalSetIds ?? [])].map((id) => catalog.globalSetsById.get(id)?.fields ?? []),
    ...(can.user ? [catalog.userFields] : []),
  ];
  const matrixFieldIds = new Set(
    allowedLayouts
      .flat()
      .filter((f) => f.type === 'Matrix')
      .map((f) => f.id),
  );
  for (const fieldId of matrixFieldIds) types.push(...(blockTypeObjects.get(fieldId) ?? []));
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: queryFields }),
    types: [ElementInterface, ...(types.length ? types : [])],
    directives: [...specifiedDirectives, ...CONTENT_DIRECTIVES],
  });
  // Directives change presentation only; every resolver of every object type goes through them.
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) field.resolve = withDirectives(field.resolve as never);
  }
  return schema;
}
