import type { ContentStore } from '../../storage/content-store';
import { drawDemoImage } from './demo-images';

/**
 * Demo content, written at first start (when no site exists): two sites, a structured news section with
 * articles and child articles, a blog channel, a single, images, categories, tags, users and a global set.
 * Dates are fixed so that examples in the docs give the same answers everywhere.
 */
export async function seedDemoContent(store: ContentStore): Promise<boolean> {
  const existing = await store.db.selectFrom('sites').select('id').executeTakeFirst();
  if (existing) return false;

  await store.createSite({
    handle: 'default',
    name: 'Harbour Times',
    language: 'en-US',
    baseUrl: '@web',
    primary: true,
  });
  await store.createSite({ handle: 'french', name: 'Le Journal du Port', language: 'fr-FR', baseUrl: '@web/fr' });

  await store.createField({ handle: 'summary', name: 'Summary', type: 'PlainText' });
  await store.createField({ handle: 'body', name: 'Body', type: 'RichText' });
  await store.createField({ handle: 'readingTime', name: 'Reading time (minutes)', type: 'Number', searchable: false });
  await store.createField({ handle: 'eventDate', name: 'Event date', type: 'Date', searchable: false });
  await store.createField({ handle: 'featured', name: 'Featured', type: 'Lightswitch', searchable: false });
  await store.createField({ handle: 'altText', name: 'Alternative text', type: 'PlainText' });
  await store.createField({ handle: 'bio', name: 'Biography', type: 'PlainText' });
  await store.createField({ handle: 'tagline', name: 'Tagline', type: 'PlainText' });
  await store.createField({ handle: 'footerText', name: 'Footer text', type: 'RichText' });
  await store.createField({
    handle: 'featuredImage',
    name: 'Featured image',
    type: 'Assets',
    settings: { sources: ['images'], limit: 1 },
  });
  await store.createField({
    handle: 'relatedArticles',
    name: 'Related articles',
    type: 'Entries',
    settings: { sources: ['news'] },
  });
  await store.createField({ handle: 'topics', name: 'Topics', type: 'Categories', settings: { source: 'topics' } });
  await store.createField({ handle: 'tags', name: 'Tags', type: 'Tags', settings: { source: 'blogTags' } });
  await store.createField({ handle: 'contributors', name: 'Contributors', type: 'Users' });
  await store.createField({
    handle: 'contentBlocks',
    name: 'Content blocks',
    type: 'Matrix',
    blockTypes: [
      { handle: 'text', name: 'Text', fields: [{ handle: 'text', name: 'Text', type: 'RichText' }] },
      {
        handle: 'quote',
        name: 'Quote',
        fields: [
          { handle: 'quote', name: 'Quote', type: 'PlainText' },
          { handle: 'attribution', name: 'Attribution', type: 'PlainText' },
        ],
      },
      {
        handle: 'image',
        name: 'Image',
        fields: [
          { handle: 'image', name: 'Image', type: 'Assets' },
          { handle: 'caption', name: 'Caption', type: 'PlainText' },
        ],
      },
    ],
  });

  await store.createVolume({
    handle: 'images',
    name: 'Images',
    path: 'images',
    url: '@web/assets/images',
    fields: ['altText'],
  });
  await store.createVolume({ handle: 'documents', name: 'Documents', path: 'documents', url: '@web/assets/documents' });
  await store.createTransform({
    handle: 'thumb',
    name: 'Thumbnail',
    mode: 'crop',
    position: 'center-center',
    width: 120,
    height: 80,
  });

  await store.createUserGroup({ handle: 'editors', name: 'Editors' });
  await store.createUserGroup({ handle: 'authors', name: 'Authors' });
  await store.setUserFields(['bio']);

  await store.createTagGroup({ handle: 'blogTags', name: 'Blog tags' });
  await store.createCategoryGroup({
    handle: 'topics',
    name: 'Topics',
    uriFormat: "{parent.uri ?? 'topics'}/{slug}",
    maxLevels: 3,
  });

  await store.createSection({
    handle: 'news',
    name: 'News',
    type: 'structure',
    maxLevels: 3,
    siteSettings: { default: { uriFormat: 'news/{slug}' }, french: { uriFormat: 'actualites/{slug}' } },
    entryTypes: [
      {
        handle: 'article',
        name: 'Article',
        fields: [
          'summary',
          'body',
          'readingTime',
          'featured',
          'featuredImage',
          'relatedArticles',
          'topics',
          'tags',
          'contributors',
          'contentBlocks',
        ],
      },
      { handle: 'link', name: 'Link', fields: ['summary', 'eventDate'] },
    ],
  });
  await store.createSection({
    handle: 'blog',
    name: 'Blog',
    type: 'channel',
    siteSettings: { default: { uriFormat: 'blog/{slug}' } },
    entryTypes: [{ handle: 'post', name: 'Post', fields: ['body', 'tags', 'featuredImage'] }],
  });
  await store.createSection({
    handle: 'about',
    name: 'About',
    type: 'single',
    siteSettings: { default: { uriFormat: 'about' }, french: { uriFormat: 'a-propos' } },
    entryTypes: [{ handle: 'about', name: 'About', fields: ['body'] }],
  });

  const sunrise = await store.saveAsset({
    volume: 'images',
    folder: 'news/',
    filename: 'sunrise.jpg',
    title: 'Sunrise over the harbour',
    data: await drawDemoImage({
      width: 640,
      height: 400,
      from: '#f08a5d',
      to: '#6a2c70',
      label: 'Sunrise',
      format: 'jpeg',
    }),
    focalPoint: { x: 0.7, y: 0.35 },
    fields: { altText: 'The sun rising over the harbour' },
    dateCreated: '2020-01-02T08:00:00Z',
  });
  const boats = await store.saveAsset({
    volume: 'images',
    folder: 'news/',
    filename: 'boats.png',
    title: 'Boats at the pier',
    data: await drawDemoImage({
      width: 320,
      height: 240,
      from: '#3fc1c9',
      to: '#364f6b',
      label: 'Boats',
      format: 'png',
    }),
    fields: { altText: 'Fishing boats at the pier' },
    dateCreated: '2020-01-03T08:00:00Z',
  });
  const portrait = await store.saveAsset({
    volume: 'images',
    folder: 'people/',
    filename: 'ada.jpg',
    title: 'Ada',
    data: await drawDemoImage({
      width: 200,
      height: 200,
      from: '#95e1d3',
      to: '#f38181',
      label: 'Ada',
      format: 'jpeg',
    }),
    dateCreated: '2020-01-01T08:00:00Z',
  });
  await store.saveAsset({
    volume: 'documents',
    filename: 'annual-report.txt',
    title: 'Annual report',
    data: Buffer.from('Harbour Times annual report\nCirculation grew in 2019.\n'),
    dateCreated: '2020-01-04T08:00:00Z',
  });

  const ada = await store.saveUser({
    username: 'ada',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    photoId: portrait,
    groups: ['editors'],
    preferredLanguage: 'en-US',
    fields: { bio: 'Editor in chief.' },
    dateCreated: '2019-01-01T00:00:00Z',
  });
  const grace = await store.saveUser({
    username: 'grace',
    email: 'grace@example.com',
    firstName: 'Grace',
    lastName: 'Hopper',
    groups: ['authors'],
    fields: { bio: 'Writes about ships and computers.' },
    dateCreated: '2019-01-02T00:00:00Z',
  });
  const linus = await store.saveUser({
    username: 'linus',
    email: 'linus@example.com',
    groups: [],
    dateCreated: '2019-01-03T00:00:00Z',
  });

  const tech = await store.saveCategory({ group: 'topics', title: 'Technology', dateCreated: '2019-02-01T00:00:00Z' });
  const databases = await store.saveCategory({
    group: 'topics',
    title: 'Databases',
    parentId: tech,
    dateCreated: '2019-02-02T00:00:00Z',
  });
  await store.saveCategory({ group: 'topics', title: 'Web', parentId: tech, dateCreated: '2019-02-03T00:00:00Z' });
  const harbour = await store.saveCategory({
    group: 'topics',
    title: 'Harbour life',
    dateCreated: '2019-02-04T00:00:00Z',
  });

  const tagShips = await store.saveTag({ group: 'blogTags', title: 'ships', dateCreated: '2019-03-01T00:00:00Z' });
  const tagSql = await store.saveTag({ group: 'blogTags', title: 'sql', dateCreated: '2019-03-02T00:00:00Z' });
  const tagWeather = await store.saveTag({ group: 'blogTags', title: 'weather', dateCreated: '2019-03-03T00:00:00Z' });

  const harbourOpens = await store.saveEntry({
    section: 'news',
    type: 'article',
    title: 'The new harbour opens',
    authorId: ada,
    postDate: '2018-04-05T09:00:00Z',
    dateCreated: '2018-04-05T09:00:00Z',
    sites: { french: { title: 'Le nouveau port ouvre' } },
    fields: {
      summary: 'After three years of work the new harbour opens to ships.',
      body: 'The **new harbour** opened on Thursday.\n\nShips can now dock at *all hours*.',
      readingTime: 4,
      featured: true,
      featuredImage: [sunrise],
      topics: [harbour],
      tags: [tagShips, tagWeather],
      contributors: [ada, grace],
      contentBlocks: [
        { type: 'text', fields: { text: 'The ceremony began at *nine*.' } },
        { type: 'quote', fields: { quote: 'A harbour for everyone.', attribution: 'The mayor' } },
        { type: 'image', fields: { image: [boats], caption: 'The first boats' } },
      ],
    },
  });
  await store.saveEntry({
    section: 'news',
    type: 'article',
    title: 'First ships dock at the new harbour',
    parentId: harbourOpens,
    authorId: grace,
    postDate: '2018-04-06T10:00:00Z',
    dateCreated: '2018-04-06T10:00:00Z',
    fields: {
      summary: 'Twelve fishing boats were the first to dock.',
      body: 'Twelve *fishing boats* docked before noon.',
      readingTime: 2,
      featuredImage: [boats],
      tags: [tagShips],
    },
  });
  await store.saveEntry({
    section: 'news',
    type: 'article',
    title: 'Harbour traffic doubles',
    parentId: harbourOpens,
    authorId: grace,
    postDate: '2018-05-20T10:00:00Z',
    dateCreated: '2018-05-20T10:00:00Z',
    fields: {
      summary: 'Traffic doubled in the first month.',
      body: 'Traffic in May was *twice* that of April.',
      readingTime: 3,
      tags: [tagShips],
    },
  });
  const _databaseMove = await store.saveEntry({
    section: 'news',
    type: 'article',
    title: 'City archive moves to a new database',
    authorId: ada,
    postDate: '2019-08-21T13:05:00Z',
    dateCreated: '2019-08-21T13:05:00Z',
    fields: {
      summary: 'The archive now runs on PostgreSQL.',
      body: 'The city archive moved its **records** to a relational database.',
      readingTime: 5,
      topics: [databases],
      tags: [tagSql],
      featuredImage: [boats],
    },
  });
  await store.saveEntry({
    section: 'news',
    type: 'article',
    title: 'Storm warning for the weekend',
    authorId: grace,
    postDate: '2019-11-02T07:30:00Z',
    dateCreated: '2019-11-02T07:30:00Z',
    fields: {
      summary: 'Strong winds expected on Saturday.',
      body: 'Boats should stay in the *harbour*.',
      readingTime: 1,
      tags: [tagWeather],
      relatedArticles: [harbourOpens],
    },
  });
  await store.saveEntry({
    section: 'news',
    type: 'link',
    title: 'Harbour festival programme',
    authorId: ada,
    postDate: '2020-02-01T12:00:00Z',
    dateCreated: '2020-02-01T12:00:00Z',
    fields: { summary: 'The programme of the summer festival.', eventDate: '2020-07-14T18:00:00Z' },
  });
  await store.saveEntry({
    section: 'news',
    type: 'article',
    title: 'Lighthouse restoration planned',
    authorId: ada,
    postDate: '2099-01-01T00:00:00Z',
    dateCreated: '2020-03-01T00:00:00Z',
    fields: { summary: 'Pending: not yet published.', body: 'Work starts next year.' },
  });
  await store.saveEntry({
    section: 'news',
    type: 'article',
    title: 'Ferry timetable for winter 2018',
    authorId: grace,
    postDate: '2018-10-01T00:00:00Z',
    expiryDate: '2019-03-31T00:00:00Z',
    dateCreated: '2018-10-01T00:00:00Z',
    fields: { summary: 'Expired timetable.', body: 'Ferries leave every *two* hours.' },
  });
  await store.saveEntry({
    section: 'news',
    type: 'article',
    title: 'Draft notes on the fish market',
    authorId: linus,
    enabled: false,
    postDate: '2019-06-01T00:00:00Z',
    dateCreated: '2019-06-01T00:00:00Z',
    fields: { summary: 'Disabled entry.', body: 'Not ready.' },
  });
  await store.saveEntry({
    section: 'blog',
    title: 'Why we write about ships',
    authorId: grace,
    postDate: '2019-05-05T05:05:05Z',
    dateCreated: '2019-05-05T05:05:05Z',
    fields: { body: 'Because the *harbour* is the heart of the city.', tags: [tagShips], featuredImage: [sunrise] },
  });
  await store.saveEntry({
    section: 'about',
    title: 'About us',
    authorId: ada,
    postDate: '2018-01-01T00:00:00Z',
    dateCreated: '2018-01-01T00:00:00Z',
    sites: { french: { title: 'À propos' } },
    fields: { body: 'The *Harbour Times* reports on life by the sea.' },
  });

  await store.createGlobalSet({
    handle: 'siteInfo',
    name: 'Site information',
    fieldHandles: ['tagline', 'footerText'],
    fields: { tagline: 'News from the harbour', footerText: 'Published by the *Harbour Times* cooperative.' },
    dateCreated: '2018-01-01T00:00:00Z',
  });
  return true;
}
