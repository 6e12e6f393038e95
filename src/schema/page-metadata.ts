// What a page says about itself (extract results, include_content pages).

import { z } from 'zod';
import { absoluteUrl } from './common.js';

export const pageMetadata = z
  .strictObject({
    title: z.string().optional(),
    description: z.string().optional(),
    language: z.string().optional().meta({ description: 'As the page declares it, e.g. en or en-GB' }),
    published_time: z.string().optional().meta({ description: 'ISO 8601' }),
    modified_time: z.string().optional().meta({ description: 'ISO 8601' }),
    site_name: z.string().optional(),
    canonical_url: absoluteUrl('Absolute').optional(),
    final_url: absoluteUrl('Absolute URL of the page after redirects').optional(),
  })
  .meta({ description: 'Each field is present only when the page states it' });
