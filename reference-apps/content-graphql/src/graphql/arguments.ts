import { GraphQLBoolean, GraphQLInt, GraphQLList, GraphQLString, type GraphQLFieldConfigArgumentMap } from 'graphql';
import { QueryArgumentScalar } from './scalars';

const list = (type: typeof GraphQLString | typeof QueryArgumentScalar) => ({ type: new GraphQLList(type) });

/** Arguments of all twelve queries (and of every nested element list), with the spec's names and types. */
export function commonArguments(): GraphQLFieldConfigArgumentMap {
  return {
    id: { ...list(QueryArgumentScalar), description: 'Narrows the query results based on the elements’ IDs.' },
    uid: { ...list(GraphQLString), description: 'Narrows the query results based on the elements’ UIDs.' },
    status: { ...list(GraphQLString), description: 'Narrows the query results based on the elements’ statuses.' },
    archived: {
      type: GraphQLBoolean,
      description: 'Narrows the query results to only elements that have been archived.',
    },
    trashed: {
      type: GraphQLBoolean,
      description: 'Narrows the query results to only elements that have been soft-deleted.',
    },
    site: {
      ...list(GraphQLString),
      description: 'Determines which site(s) the elements should be queried in. Defaults to the primary site.',
    },
    siteId: {
      type: GraphQLString,
      description: 'Determines which site(s) the elements should be queried in, by id. Defaults to the primary site.',
    },
    unique: {
      type: GraphQLBoolean,
      description: 'Determines whether only elements with unique IDs should be returned by the query.',
    },
    enabledForSite: {
      type: GraphQLBoolean,
      description:
        'Narrows the query results based on whether the elements are enabled in the site they’re being queried in.',
    },
    title: { ...list(GraphQLString), description: 'Narrows the query results based on the elements’ titles.' },
    slug: { ...list(GraphQLString), description: 'Narrows the query results based on the elements’ slugs.' },
    uri: { ...list(GraphQLString), description: 'Narrows the query results based on the elements’ URIs.' },
    search: {
      type: GraphQLString,
      description: 'Narrows the query results to only elements that match a search query.',
    },
    relatedTo: {
      type: new GraphQLList(GraphQLInt),
      description:
        'Narrows the query results to elements that relate to any of the provided element IDs. This argument is ignored, if `relatedToAll` is also used.',
    },
    relatedToAll: {
      type: new GraphQLList(GraphQLInt),
      description:
        'Narrows the query results to elements that relate to *all* of the provided element IDs. Using this argument will cause `relatedTo` argument to be ignored.',
    },
    ref: { ...list(GraphQLString), description: 'Narrows the query results based on a reference string.' },
    fixedOrder: {
      type: GraphQLBoolean,
      description: 'Causes the query results to be returned in the order specified by the `id` argument.',
    },
    inReverse: { type: GraphQLBoolean, description: 'Causes the query results to be returned in reverse order.' },
    dateCreated: {
      ...list(GraphQLString),
      description: 'Narrows the query results based on the elements’ creation dates.',
    },
    dateUpdated: {
      ...list(GraphQLString),
      description: 'Narrows the query results based on the elements’ last-updated dates.',
    },
    offset: { type: GraphQLInt, description: 'Sets the offset for paginated results.' },
    limit: { type: GraphQLInt, description: 'Sets the limit for paginated results.' },
    orderBy: { type: GraphQLString, description: 'Sets the field the returned elements should be ordered by' },
  };
}

export function structureArguments(): GraphQLFieldConfigArgumentMap {
  return {
    withStructure: {
      type: GraphQLBoolean,
      description: 'Explicitly determines whether the query should join in the structure data.',
    },
    structureId: { type: GraphQLInt, description: 'Determines which structure data should be joined into the query.' },
    level: {
      type: GraphQLInt,
      description: 'Narrows the query results based on the elements’ level within the structure.',
    },
    hasDescendants: {
      type: GraphQLBoolean,
      description: 'Narrows the query results based on whether the elements have any descendants.',
    },
    ancestorOf: {
      type: GraphQLInt,
      description: 'Narrows the query results to only elements that are ancestors of another element.',
    },
    ancestorDist: {
      type: GraphQLInt,
      description:
        'Narrows the query results to only elements that are up to a certain distance away from the element specified by `ancestorOf`.',
    },
    descendantOf: {
      type: GraphQLInt,
      description: 'Narrows the query results to only elements that are descendants of another element.',
    },
    descendantDist: {
      type: GraphQLInt,
      description:
        'Narrows the query results to only elements that are up to a certain distance away from the element specified by `descendantOf`.',
    },
    leaves: {
      type: GraphQLBoolean,
      description:
        'Narrows the query results based on whether the elements are “leaves” (element with no descendants).',
    },
    nextSiblingOf: {
      type: GraphQLInt,
      description: 'Narrows the query results to only the entry that comes immediately after another element.',
    },
    prevSiblingOf: {
      type: GraphQLInt,
      description: 'Narrows the query results to only the entry that comes immediately before another element.',
    },
    positionedAfter: {
      type: GraphQLInt,
      description: 'Narrows the query results to only entries that are positioned after another element.',
    },
    positionedBefore: {
      type: GraphQLInt,
      description: 'Narrows the query results to only entries that are positioned before another element.',
    },
    editable: {
      type: GraphQLBoolean,
      description: 'Whether to only return entries that the user has permission to edit.',
    },
  };
}

/** `authorGroups`: the author group arguments exist only when the schema can read users (group membership is user data). */
export function entryArguments(authorGroups = true): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {
    ...commonArguments(),
    ...structureArguments(),
    section: {
      ...list(GraphQLString),
      description: 'Narrows the query results based on the section handles the entries belong to.',
    },
    sectionId: {
      ...list(QueryArgumentScalar),
      description: 'Narrows the query results based on the sections the entries belong to, per the sections’ IDs.',
    },
    type: {
      ...list(GraphQLString),
      description: 'Narrows the query results based on the entries’ entry type handles.',
    },
    typeId: {
      ...list(QueryArgumentScalar),
      description: 'Narrows the query results based on the entries’ entry types, per the types’ IDs.',
    },
    authorId: { ...list(QueryArgumentScalar), description: 'Narrows the query results based on the entries’ authors.' },
    authorGroup: {
      ...list(GraphQLString),
      description: 'Narrows the query results based on the user group the entries’ authors belong to.',
    },
    authorGroupId: {
      ...list(QueryArgumentScalar),
      description:
        'Narrows the query results based on the user group the entries’ authors belong to, per the groups’ IDs.',
    },
    postDate: { ...list(GraphQLString), description: 'Narrows the query results based on the entries’ post dates.' },
    before: {
      type: GraphQLString,
      description: 'Narrows the query results to only entries that were posted before a certain date.',
    },
    after: {
      type: GraphQLString,
      description: 'Narrows the query results to only entries that were posted on or after a certain date.',
    },
    expiryDate: {
      ...list(GraphQLString),
      description: 'Narrows the query results based on the entries’ expiry dates.',
    },
  };
  if (!authorGroups) {
    delete args.authorGroup;
    delete args.authorGroupId;
  }
  return args;
}

export function categoryArguments(): GraphQLFieldConfigArgumentMap {
  return {
    ...commonArguments(),
    ...structureArguments(),
    group: {
      ...list(GraphQLString),
      description:
        'Narrows the query results based on the category groups the categories belong to per the group’s handles.',
    },
    groupId: {
      ...list(QueryArgumentScalar),
      description:
        'Narrows the query results based on the category groups the categories belong to, per the groups’ IDs.',
    },
  };
}

export function assetArguments(): GraphQLFieldConfigArgumentMap {
  return {
    ...commonArguments(),
    volumeId: {
      ...list(QueryArgumentScalar),
      description: 'Narrows the query results based on the volumes the assets belong to, per the volumes’ IDs.',
    },
    volume: {
      ...list(GraphQLString),
      description: 'Narrows the query results based on the volumes the assets belong to, per the volumes’ handles.',
    },
    folderId: {
      ...list(QueryArgumentScalar),
      description: 'Narrows the query results based on the folders the assets belong to, per the folders’ IDs.',
    },
    filename: { ...list(GraphQLString), description: 'Narrows the query results based on the assets’ filenames.' },
    kind: { ...list(GraphQLString), description: 'Narrows the query results based on the assets’ file kinds.' },
    height: { ...list(GraphQLString), description: 'Narrows the query results based on the assets’ image heights.' },
    width: { ...list(GraphQLString), description: 'Narrows the query results based on the assets’ image widths.' },
    size: {
      ...list(GraphQLString),
      description: 'Narrows the query results based on the assets’ file sizes (in bytes).',
    },
    dateModified: {
      type: GraphQLString,
      description: 'Narrows the query results based on the assets’ files’ last-modified dates.',
    },
    includeSubfolders: {
      type: GraphQLBoolean,
      description:
        'Broadens the query results to include assets from any of the subfolders of the folder specified by `folderId`.',
    },
    withTransforms: { ...list(GraphQLString), description: 'A list of transform handles to preload.' },
  };
}

export function globalSetArguments(): GraphQLFieldConfigArgumentMap {
  return {
    ...commonArguments(),
    handle: { ...list(GraphQLString), description: 'Narrows the query results based on the global sets’ handles.' },
  };
}

export function userArguments(): GraphQLFieldConfigArgumentMap {
  return {
    ...commonArguments(),
    email: { ...list(GraphQLString), description: 'Narrows the query results based on the users’ email addresses.' },
    username: { ...list(GraphQLString), description: 'Narrows the query results based on the users’ usernames.' },
    firstName: { ...list(GraphQLString), description: 'Narrows the query results based on the users’ first names.' },
    lastName: { ...list(GraphQLString), description: 'Narrows the query results based on the users’ last names.' },
    groupId: {
      ...list(QueryArgumentScalar),
      description: 'Narrows the query results based on the user group the users belong to, per the groups’ IDs.',
    },
    group: {
      ...list(QueryArgumentScalar),
      description: 'Narrows the query results based on the user group the users belong to.',
    },
  };
}

export function tagArguments(): GraphQLFieldConfigArgumentMap {
  return {
    ...commonArguments(),
    group: {
      ...list(GraphQLString),
      description: 'Narrows the query results based on the tag groups the tags belong to per the group’s handles.',
    },
    groupId: {
      ...list(QueryArgumentScalar),
      description: 'Narrows the query results based on the tag groups the tags belong to, per the groups’ IDs.',
    },
  };
}

export function matrixBlockArguments(): GraphQLFieldConfigArgumentMap {
  return {
    id: { ...list(QueryArgumentScalar), description: 'Narrows the query results based on the blocks’ IDs.' },
    status: { ...list(GraphQLString), description: 'Narrows the query results based on the blocks’ statuses.' },
    type: { ...list(GraphQLString), description: 'Narrows the query results based on the block types’ handles.' },
    typeId: {
      ...list(QueryArgumentScalar),
      description: 'Narrows the query results based on the block types, per the types’ IDs.',
    },
    offset: { type: GraphQLInt, description: 'Sets the offset for paginated results.' },
    limit: { type: GraphQLInt, description: 'Sets the limit for paginated results.' },
  };
}

/** The arguments of the transform directive, also accepted by asset `url`. */
export function transformArguments(): GraphQLFieldConfigArgumentMap {
  return {
    handle: { type: GraphQLString, description: 'The handle of the named transform to use.' },
    transform: { type: GraphQLString, description: 'The handle of the named transform to use.' },
    width: { type: GraphQLInt, description: 'Width for the generated transform' },
    height: { type: GraphQLInt, description: 'Height for the generated transform' },
    mode: { type: GraphQLString, description: 'The mode to use for the generated transform: crop, fit or stretch.' },
    position: { type: GraphQLString, description: 'The position to use when cropping, if no focal point specified.' },
    interlace: {
      type: GraphQLString,
      description: 'The interlace mode to use for the transform: none, line, plane or partition.',
    },
    quality: { type: GraphQLInt, description: 'The quality of the transform' },
    format: { type: GraphQLString, description: 'The format to use for the transform: jpg, png, gif, webp or avif.' },
    immediately: {
      type: GraphQLBoolean,
      description:
        'Whether the transform should be generated immediately or only when the image is requested used the generated URL',
    },
  };
}
