import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SITE_CONFIG_ELEMENT_ID, type SiteConfig } from '@digicard/contracts';

/** The built web app's index.html with the site configuration embedded (no extra round trip on a phone). */
export class WebIndex {
  readonly html: string | null;

  constructor(distDir: string, site: SiteConfig) {
    const file = join(distDir, 'index.html');
    if (!existsSync(file)) {
      this.html = null;
      return;
    }
    const json = JSON.stringify(site).replace(/</g, '\\u003c');
    const tag = `<script type="application/json" id="${SITE_CONFIG_ELEMENT_ID}">${json}</script>`;
    this.html = readFileSync(file, 'utf8').replace('</head>', `${tag}</head>`);
  }
}

export const WEB_INDEX = Symbol('WEB_INDEX');
