// Prism answers an image call with the contract's placeholder text, which no <img> can show. On
// `npm run dev:mock` the treatment image calls are answered here instead, before the proxy to Prism: a
// synthetic fundus (src/domain/fundus, the demo seed's painter) as JPEG, 1600 × 1200 like the contract's
// examples, so the plans of the examples fall on it where they belong; the thumbnail 320 px wide.
import sharp from 'sharp';
import type { Plugin } from 'vite';
import { paintSyntheticFundus } from '../src/domain/fundus/synthetic-fundus';

const IMAGE_CALL = /^\/api\/treatments\/[^/?]+\/images\/[^/?]+\/(display|thumbnail)(?:\?|$)/;

async function paintImages(): Promise<Record<'display' | 'thumbnail', Buffer>> {
  const { raster } = paintSyntheticFundus({ width: 1600, height: 1200, eye: 'OD', seed: 7 });
  const pixels = sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength), {
    raw: { width: raster.width, height: raster.height, channels: 3 },
  });
  const [display, thumbnail] = await Promise.all([
    pixels.clone().jpeg({ quality: 90 }).toBuffer(),
    pixels.clone().resize({ width: 320 }).jpeg({ quality: 85 }).toBuffer(),
  ]);
  return { display, thumbnail };
}

export function mockImages(): Plugin {
  let images: Promise<Record<'display' | 'thumbnail', Buffer>> | undefined;
  return {
    name: 'macula-mock-images',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const variant = IMAGE_CALL.exec(request.url ?? '')?.[1] as 'display' | 'thumbnail' | undefined;
        if (!variant) return next();
        images ??= paintImages();
        images.then(
          (painted) => {
            response.setHeader('Content-Type', 'image/jpeg');
            response.setHeader('Cache-Control', 'no-store');
            response.end(painted[variant]);
          },
          (error: unknown) => next(error),
        );
      });
    },
  };
}
