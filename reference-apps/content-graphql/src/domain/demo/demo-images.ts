import sharp from 'sharp';

/** Draws a small real image (gradient sky, a sun and a label) and encodes it as PNG or JPEG. */
export async function drawDemoImage(options: {
  width: number;
  height: number;
  from: string;
  to: string;
  label: string;
  format: 'png' | 'jpeg';
}): Promise<Buffer> {
  const { width, height, from, to, label } = options;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <circle cx="${Math.round(width * 0.7)}" cy="${Math.round(height * 0.35)}" r="${Math.round(Math.min(width, height) / 6)}" fill="#ffd35a"/>
  <rect y="${Math.round(height * 0.75)}" width="100%" height="${Math.round(height * 0.25)}" fill="#2d4f3c"/>
  <text x="12" y="${height - 14}" font-family="sans-serif" font-size="${Math.max(12, Math.round(height / 12))}" fill="#ffffff">${label}</text>
</svg>`;
  const image = sharp(Buffer.from(svg));
  return options.format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 85 }).toBuffer();
}
