/**
 * The profile's stylesheet: inlined in the public page's `<head>`, injected by the dashboard preview. Mobile first
 * (works from 360 px), system fonts only, every rule scoped under `.pv`. Colours the owner picks come as inline
 * styles on the elements; this sheet only lays them out.
 */
export const profileCss = `
.pv{--pv-focus:#1a5fd0;--pv-error:#b00020;box-sizing:border-box;max-width:480px;margin:0 auto;padding-bottom:4px;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;text-align:center;overflow-wrap:anywhere}
.pv *,.pv *::before,.pv *::after{box-sizing:inherit}
.pv [hidden]{display:none!important}
.pv img{max-width:100%}
.pv a{color:inherit}
.pv a:focus-visible,.pv button:focus-visible,.pv input:focus-visible,.pv textarea:focus-visible,.pv [tabindex]:focus-visible{outline:3px solid var(--pv-focus);outline-offset:2px;box-shadow:0 0 0 6px #fff}
.pv-sr,.pv-hp{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0}
.pv-header{position:relative;display:flex;align-items:center;justify-content:center;overflow:hidden}
.pv-cover{position:absolute;inset:0;width:100%;height:100%;object-fit:cover}
.pv-avatar{position:relative;display:block;object-fit:cover;border-radius:50%;border:3px solid #fff;box-shadow:0 2px 8px rgba(0,0,0,.25)}
.pv-intro{padding:12px 16px 0}
.pv-name{margin:0;font-size:1.75rem;line-height:1.2}
.pv-title{margin:4px 0 0;font-size:1.1rem}
.pv-logo{display:block;height:auto;margin:12px auto 0}
.pv-business{margin:8px 0 0;font-weight:600}
.pv-actions,.pv-links{display:grid;gap:10px;padding:16px 16px 0}
.pv-btn{display:flex;align-items:center;justify-content:center;width:100%;min-height:48px;margin:0;padding:8px 16px;border-style:solid;border-radius:10px;font:inherit;font-weight:600;line-height:1.25;text-align:center;text-decoration:none;cursor:pointer}
.pv-toggle::after{content:"";width:.5em;height:.5em;margin-left:.6em;border:solid currentColor;border-width:0 2px 2px 0;transform:translateY(-25%) rotate(45deg)}
.pv-toggle[aria-expanded=true]::after{transform:translateY(25%) rotate(-135deg)}
.pv-panel{padding:16px;border-radius:10px;text-align:left}
.pv-bio{white-space:pre-line}
.pv-note{margin:0 0 12px}
.pv-panel .pv-note:last-child{margin:12px 0 0}
.pv-social{display:flex;flex-wrap:wrap;justify-content:center;gap:10px;margin:0;padding:16px 16px 0;list-style:none}
.pv-social a{display:flex;align-items:center;justify-content:center;width:48px;height:48px;border-radius:50%;font-weight:700;font-size:15px;text-decoration:none}
.pv-section{padding:16px 16px 0}
.pv-section h2{margin:8px 0 10px;font-size:1.3rem}
.pv-video iframe{display:block;width:100%;height:auto;aspect-ratio:16/9;border:0;border-radius:10px;background:#000}
.pv-gallery,.pv-products{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:10px;margin:0;padding:0;list-style:none}
.pv-gallery a,.pv-product a{display:block;border-radius:8px}
.pv-product-blank{display:block;aspect-ratio:4/3;border-radius:8px;background:currentColor;opacity:.12}
.pv-gallery img,.pv-product img{display:block;width:100%;height:auto;aspect-ratio:4/3;object-fit:cover;border-radius:8px}
.pv-product a{padding-bottom:4px;text-decoration:none}
.pv-product-name{display:block;margin-top:6px;font-weight:600;text-decoration:underline}
.pv-form{display:grid;gap:12px}
.pv-field{display:grid;gap:4px}
.pv-field input,.pv-field textarea{width:100%;min-height:44px;padding:10px;border:1px solid #767676;border-radius:6px;background:#fff;color:#111;font:inherit}
.pv-field [aria-invalid=true]{border:2px solid var(--pv-error)}
.pv-check{display:flex;flex-wrap:wrap;align-items:flex-start;gap:10px}
.pv-check label{flex:1}
.pv-check input{width:24px;min-height:24px;height:24px;margin:0;flex:none}
.pv-error,.pv-alert{margin:0;padding:4px 8px;border-radius:6px;background:#fff;color:var(--pv-error);font-weight:600;flex-basis:100%}
.pv-alert:empty{display:none}
.pv-send{min-height:48px;padding:8px 24px;border:1px solid rgba(0,0,0,.25);border-radius:10px;font:inherit;font-weight:700;cursor:pointer}
.pv-send:disabled{opacity:.7;cursor:progress}
.pv-status{margin:0;font-size:1.1rem;font-weight:600}
.pv-footer{padding:24px 16px 16px;font-size:.9rem}
`.replace(/\n/g, '');
