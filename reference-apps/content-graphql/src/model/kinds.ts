/** The kinds of fields, sections and elements of the content model (the CMS's names). */
export type FieldKind =
  | 'PlainText'
  | 'RichText'
  | 'Number'
  | 'Date'
  | 'Lightswitch'
  | 'Entries'
  | 'Assets'
  | 'Categories'
  | 'Tags'
  | 'Users'
  | 'Matrix';

export type SectionType = 'channel' | 'structure' | 'single';

export type ElementKind = 'entry' | 'asset' | 'globalset' | 'user' | 'tag' | 'category' | 'matrixblock';
