/** Set on `<div id="root">` when the gateway rendered the page on the server (the browser then hydrates it). */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/** The `<script type="application/json">` element with the catalogue the page was rendered with. */
export const CATALOGUE_DATA_ELEMENT_ID = 'catalogue-data';

/** The `<script type="application/json">` element with the plans (payments') the page was rendered with. */
export const PLANS_DATA_ELEMENT_ID = 'plans-data';
