import { h, on } from '@twofold/web-ui';
import { model } from './api';
import { actionButton, field, table } from './dom';
import { t } from './i18n';
import { ScreenContext } from './screens';

/*
 * The account's settings (an Admin's): the name its pages show, with a preview of the access page; the
 * support contact and the showcase of the self-service portals; the identity format, with a dry run of
 * its apply and the apply's progress. Every value the service returns is put in the page as text or as
 * an input's value, never as markup.
 */

function heading(text: string): HTMLElement {
  return h('h1', { tabindex: '-1' }, text);
}

function section(title: string, ...children: (Node | null)[]): HTMLElement {
  return h('section', { class: 'card', 'aria-label': title }, h('h2', {}, title), ...children);
}

/** The product's name: the small print of every page, and the brand where an account shows no name of its own. */
const PRODUCT_NAME = 'Twofold';
/** The longest display name the service accepts. */
const DISPLAY_NAME_MAX = 64;

interface Branding {
  displayName: string;
  isDefault: boolean;
}

interface SupportInfo {
  adminName: string | null;
  adminEmail: string | null;
  adminPhone: string | null;
}

interface ShowcaseLink {
  resourceId: string;
  url: string;
  title: string;
  image: string;
  openInNewTab: boolean;
}

interface Showcase {
  enabled: boolean;
  showcaseLinks: ShowcaseLink[];
}

export async function settingsScreen(context: ScreenContext): Promise<void> {
  const [branding, support, showcase] = await Promise.all([
    model<Branding>('GET', '/settings/branding'),
    model<SupportInfo>('GET', '/settings/support-info'),
    model<Showcase>('GET', '/settings/showcase'),
  ]);
  context.root.replaceChildren(
    heading(t.settings),
    h('p', {}, h('a', { href: '#/identity-format' }, t.identityFormat), ' · ', h('a', { href: '#/account-api' }, t.accountApi)),
    brandingSection(context, branding),
    supportSection(context, support),
    showcaseSection(context, showcase),
  );
}

// ----------------------------------------------------------------------------------------- branding

/**
 * The access page as a user will see it, drawn from the name being typed: the brand above the card,
 * the product's name as small print (not when the brand is the product's name itself), as the
 * service's page layout does. The name is text in the preview, whatever it holds.
 */
function accessPagePreview(name: string): HTMLElement {
  const brand = name.trim() || PRODUCT_NAME;
  return h(
    'figure',
    { class: 'preview', 'aria-label': t.preview },
    h(
      'div',
      { class: 'preview-page' },
      h('p', { class: 'preview-brand', 'data-testid': 'preview-brand' }, brand),
      h(
        'div',
        { class: 'preview-card' },
        h('p', { class: 'preview-title' }, t.previewTitle),
        h('p', { class: 'muted' }, t.previewLead),
        h('p', { class: 'preview-code', 'aria-hidden': 'true' }, '• • • • • •'),
        h('p', { class: 'preview-button', 'aria-hidden': 'true' }, t.previewSubmit),
      ),
      brand === PRODUCT_NAME ? null : h('p', { class: 'preview-product' }, PRODUCT_NAME),
    ),
    h('figcaption', { class: 'muted' }, t.previewCaption),
  );
}

function brandingSection(context: ScreenContext, branding: Branding): HTMLElement {
  const input = h('input', {
    type: 'text',
    value: branding.isDefault ? '' : branding.displayName,
    placeholder: branding.isDefault ? branding.displayName : undefined,
    maxlength: String(DISPLAY_NAME_MAX),
    autocomplete: 'off',
  });
  const preview = h('div', {}, accessPagePreview(input.value || branding.displayName));
  // the account's name stands in while the field is empty: it is what "no name of its own" shows
  const redraw = () => preview.replaceChildren(accessPagePreview(input.value || (branding.isDefault ? branding.displayName : '')));
  input.addEventListener('input', redraw);
  const save = async (displayName: string | null) => {
    const saved = await model<Branding>('PUT', '/settings/branding', { displayName });
    branding = saved;
    input.value = saved.isDefault ? '' : saved.displayName;
    input.placeholder = saved.isDefault ? saved.displayName : '';
    redraw();
    context.notify(t.saved);
  };
  const form = on(
    h('form', { class: 'row' }, field('branding-name', t.displayName, input), h('button', { type: 'submit' }, t.save)),
    'submit',
    (event) => {
      event.preventDefault();
      save(input.value.trim() === '' ? null : input.value.trim()).catch(context.fail);
    },
  );
  return section(
    t.branding,
    h('p', { class: 'muted' }, t.brandingLead),
    form,
    h(
      'div',
      { class: 'row' },
      actionButton(t.useAccountName, () => save(null).catch(context.fail), { class: 'link' }),
    ),
    preview,
  );
}

// ------------------------------------------------------------------------------------- support info

function supportSection(context: ScreenContext, info: SupportInfo): HTMLElement {
  const name = h('input', { type: 'text', value: info.adminName ?? '', maxlength: '200', autocomplete: 'off' });
  const email = h('input', { type: 'email', value: info.adminEmail ?? '', autocomplete: 'off' });
  const phone = h('input', { type: 'tel', value: info.adminPhone ?? '', maxlength: '50', autocomplete: 'off' });
  const form = on(
    h(
      'form',
      { class: 'row' },
      field('support-name', t.supportName, name),
      field('support-email', t.supportEmail, email),
      field('support-phone', t.supportPhone, phone),
      h('button', { type: 'submit' }, t.save),
    ),
    'submit',
    async (event) => {
      event.preventDefault();
      try {
        const saved = await model<SupportInfo>('PUT', '/settings/support-info', {
          adminName: name.value.trim() || null,
          adminEmail: email.value.trim() || null,
          adminPhone: phone.value.trim() || null,
        });
        name.value = saved.adminName ?? '';
        email.value = saved.adminEmail ?? '';
        phone.value = saved.adminPhone ?? '';
        context.notify(t.saved);
      } catch (error) {
        context.fail(error);
      }
    },
  );
  return section(t.supportInfo, h('p', { class: 'muted' }, t.supportLead), form);
}

// ----------------------------------------------------------------------------------------- showcase

function showcaseSection(context: ScreenContext, showcase: Showcase): HTMLElement {
  const enabled = h('input', { type: 'checkbox', checked: showcase.enabled });
  enabled.id = 'showcase-enabled';
  const rows = h('div', { class: 'stack' });
  let counter = 0;
  const addRow = (link: ShowcaseLink) => {
    const n = ++counter;
    const title = h('input', { type: 'text', value: link.title, required: true, maxlength: '200', 'data-field': 'title' });
    const url = h('input', { type: 'url', value: link.url, required: true, 'data-field': 'url' });
    const newTab = h('input', { type: 'checkbox', checked: link.openInNewTab, 'data-field': 'openInNewTab' });
    newTab.id = `showcase-tab-${n}`;
    const row: HTMLElement = h(
      'div',
      { class: 'row showcase-link', 'data-resource-id': link.resourceId, 'data-image': link.image },
      field(`showcase-title-${n}`, t.linkTitle, title),
      field(`showcase-url-${n}`, t.linkUrl, url),
      h('div', { class: 'check' }, newTab, h('label', { for: newTab.id }, t.openInNewTab)),
      on(h('button', { type: 'button', class: 'link danger' }, t.remove), 'click', () => row.remove()),
    );
    rows.append(row);
  };
  showcase.showcaseLinks.forEach(addRow);
  const links = (): ShowcaseLink[] =>
    [...rows.querySelectorAll<HTMLElement>('.showcase-link')].map((row) => {
      const value = (name: string) => row.querySelector<HTMLInputElement>(`[data-field="${name}"]`) as HTMLInputElement;
      return {
        resourceId: row.dataset['resourceId'] ?? '',
        image: row.dataset['image'] ?? '',
        title: value('title').value.trim(),
        url: value('url').value.trim(),
        openInNewTab: value('openInNewTab').checked,
      };
    });
  const form = on(
    h(
      'form',
      { class: 'stack' },
      h('div', { class: 'check' }, enabled, h('label', { for: enabled.id }, t.showcaseEnabled)),
      rows,
      h(
        'div',
        { class: 'row' },
        on(h('button', { type: 'button', class: 'link' }, t.addLink), 'click', () =>
          addRow({ resourceId: '', url: '', title: '', image: '', openInNewTab: true }),
        ),
        h('button', { type: 'submit' }, t.save),
      ),
    ),
    'submit',
    async (event) => {
      event.preventDefault();
      try {
        await model<Showcase>('PUT', '/settings/showcase', { enabled: enabled.checked, showcaseLinks: links() });
        context.notify(t.saved);
      } catch (error) {
        context.fail(error);
      }
    },
  );
  return section(t.showcase, h('p', { class: 'muted' }, t.showcaseLead), form);
}

// ---------------------------------------------------------------------------------- identity format

type IdentityFormat = 'AsIs' | 'Login';

interface DryRun {
  format: IdentityFormat;
  users: number;
  renamedCount: number;
  mergedCount: number;
  renamed: { from: string; to: string }[];
  merged: { into: string; from: string[] }[];
  conflicts: { into: string; customFields: number }[];
}

interface ApplyProgress {
  state: 'planning' | 'writing' | 'done' | 'failed';
  done: number;
  total: number | null;
}

/** How often the progress of a running apply is asked for. */
const PROGRESS_POLL_MS = 700;

export async function identityFormatScreen(context: ScreenContext): Promise<void> {
  const { format } = await model<{ format: IdentityFormat }>('GET', '/settings/identity-format');
  const select = h(
    'select',
    {},
    ...(['AsIs', 'Login'] as const).map((name) => h('option', { value: name, selected: name === format }, t.formatName[name])),
  );
  const planned = h('div', { 'aria-live': 'polite' });
  const progress = h('div', { 'aria-live': 'polite' });
  const reload = () => identityFormatScreen(context).catch(context.fail);

  const dryRun = actionButton(
    t.dryRun,
    async () => {
      try {
        const plan = await model<DryRun>('GET', `/settings/identity-format/dry-run?format=${select.value}`);
        planned.replaceChildren(dryRunView(plan));
      } catch (error) {
        context.fail(error);
      }
    },
    { 'data-testid': 'dry-run' },
  );
  const save = actionButton(t.save, async () => {
    try {
      await model('PUT', '/settings/identity-format', { format: select.value });
      // the screen drawn again first: a click after the notice reaches the new one
      await reload();
      context.notify(t.saved);
    } catch (error) {
      context.fail(error);
    }
  });
  const apply = actionButton(t.applyFormat, async () => {
    if (select.value !== format) {
      context.fail(new Error(t.saveFormatFirst));
      return;
    }
    if (!confirm(t.applyConfirm)) return;
    try {
      const result = await applyWithProgress(progress);
      planned.replaceChildren(
        h(
          'p',
          { 'data-testid': 'apply-result' },
          t.applied(
            result.renamed.length,
            result.merged.reduce((n, m) => n + m.from.length, 0),
          ),
        ),
      );
    } catch (error) {
      context.fail(error);
    }
  });
  context.root.replaceChildren(
    h('p', {}, h('a', { href: '#/settings' }, `← ${t.settings}`)),
    heading(t.identityFormat),
    h('p', { class: 'muted' }, t.identityFormatLead),
    h('div', { class: 'row' }, field('identity-format', t.identityFormat, select), save, dryRun, apply),
    progress,
    planned,
  );
}

function dryRunView(plan: DryRun): HTMLElement {
  const more = (shown: number, all: number) => (all > shown ? h('p', { class: 'muted' }, t.andMore(all - shown)) : null);
  return section(
    t.dryRunOf(t.formatName[plan.format]),
    h(
      'div',
      { class: 'tiles' },
      tile(t.usersNow, plan.users, 'dry-run-users'),
      tile(t.wouldRename, plan.renamedCount, 'dry-run-renamed'),
      tile(t.wouldMerge, plan.mergedCount, 'dry-run-merged'),
      tile(t.conflicts, plan.conflicts.length, 'dry-run-conflicts'),
    ),
    plan.conflicts.length
      ? h(
          'div',
          { class: 'error', role: 'alert' },
          h('p', {}, t.conflictsLead),
          table(
            [t.mergedInto, t.customFields],
            plan.conflicts.map((c) => [document.createTextNode(c.into), document.createTextNode(String(c.customFields))]),
            t.conflicts,
          ),
        )
      : null,
    plan.merged.length ? h('h3', {}, t.merges) : null,
    plan.merged.length
      ? table(
          [t.mergedInto, t.mergedFrom],
          plan.merged.map((m) => [document.createTextNode(m.into), document.createTextNode(m.from.join(', '))]),
          t.merges,
        )
      : null,
    plan.merged.length
      ? more(
          plan.merged.reduce((n, m) => n + m.from.length, 0),
          plan.mergedCount,
        )
      : null,
    plan.renamed.length ? h('h3', {}, t.renames) : null,
    plan.renamed.length
      ? table(
          [t.renamedFrom, t.renamedTo],
          plan.renamed.map((r) => [document.createTextNode(r.from), document.createTextNode(r.to)]),
          t.renames,
        )
      : null,
    more(plan.renamed.length, plan.renamedCount),
  );
}

function tile(label: string, value: number, testId: string): HTMLElement {
  return h(
    'div',
    { class: 'tile' },
    h('p', { class: 'tile-label' }, label),
    h('p', { class: 'tile-value', 'data-testid': testId }, String(value)),
  );
}

/**
 * Starts the apply with an id of our choosing and asks for its progress while the call runs: the bar
 * shows rows written of the total once the plan is made, and no figures before (or when the poll
 * reaches another instance of the service than the one applying).
 */
async function applyWithProgress(place: HTMLElement): Promise<{ renamed: unknown[]; merged: { from: string[] }[] }> {
  const id = crypto.randomUUID();
  const bar = h('progress', { 'aria-label': t.applyProgress, 'data-testid': 'apply-progress' });
  const label = h('p', { class: 'muted', 'data-testid': 'apply-progress-label' }, t.applying);
  place.replaceChildren(h('div', { class: 'card' }, label, bar));
  const show = (progress: ApplyProgress) => {
    if (progress.total === null) return;
    bar.max = Math.max(progress.total, 1);
    bar.value = progress.state === 'done' ? bar.max : progress.done;
    label.textContent = t.progressOf(progress.done, progress.total);
  };
  let running = true;
  const poll = async () => {
    while (running) {
      await new Promise((done) => setTimeout(done, PROGRESS_POLL_MS));
      if (!running) break;
      try {
        show(await model<ApplyProgress>('GET', `/settings/identity-format/apply/${id}`));
      } catch {
        // not started yet, or asked of another instance: the bar waits without figures
      }
    }
  };
  void poll();
  try {
    const result = await model<{ renamed: unknown[]; merged: { from: string[] }[] }>(
      'POST',
      `/settings/identity-format/apply?progressId=${id}`,
    );
    running = false;
    const final = await model<ApplyProgress>('GET', `/settings/identity-format/apply/${id}`).catch(() => null);
    if (final) show(final);
    // the apply has answered: it is whole, whether or not this instance counted it
    bar.max = final?.total || 1;
    bar.value = bar.max;
    label.textContent = t.applyDone;
    return result;
  } catch (error) {
    running = false;
    place.replaceChildren();
    throw error;
  }
}
