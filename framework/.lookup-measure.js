require('reflect-metadata');
const { Type, Transform } = require('class-transformer');
const { defaultMetadataStorage: s } = require('class-transformer/cjs/storage');
class Item { sku = ''; quantity = 0; }
class Order { customer = ''; items = []; note = ''; }
Type(() => Item)(Order.prototype, 'items');
Transform(({ value }) => value)(Order.prototype, 'note');
const keys = ['customer', 'items', 'note', 'extra1', 'extra2', 'extra3'];
let hits = 0;
function run(n) {
  for (let i = 0; i < n; i++) {
    const key = keys[i % keys.length];
    if (s.findTypeMetadata(Order, key) !== undefined) hits++;
    if (s.findTransformMetadatas(Order, key, 1).length > 0) hits++;
  }
}
function empty(n) { for (let i = 0; i < n; i++) { const key = keys[i % keys.length]; if (key.length > 99) hits++; } }
const f = process.argv[2] === 'empty' ? empty : run;
f(300000);
process.stdout.write('ready\n');
process.stdin.once('data', () => { f(600000); process.stdout.write('done ' + hits + '\n'); process.stdin.once('data', () => process.exit(0)); });
