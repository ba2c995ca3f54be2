import { html, Html, trustedHtml } from './html';

describe('html: the pages escape by default', () => {
  it('escapes every interpolated text, in content and in attributes', () => {
    const name = `<script>alert("x")</script> & 'y'`;
    expect(html`<p title="${name}">${name}</p>`.text).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>',
    );
  });

  it('keeps Html as it is, so fragments compose without double escaping', () => {
    const inner = html`<b>${'a < b'}</b>`;
    expect(html`<p>${inner}</p>`.text).toBe('<p><b>a &lt; b</b></p>');
  });

  it('joins lists and leaves out null, undefined and false', () => {
    expect(html`<ul>${['<1>', html`<li>2</li>`]}</ul>${null}${undefined}${false}`.text).toBe('<ul>&lt;1&gt;<li>2</li></ul>');
  });

  it('writes numbers and true as text', () => {
    expect(html`${3} ${true}`.text).toBe('3 true');
  });

  it('sends markup unescaped only through trustedHtml', () => {
    expect(html`<div>${trustedHtml('<svg/>')}</div>`.text).toBe('<div><svg/></div>');
    expect(trustedHtml('<svg/>')).toBeInstanceOf(Html);
  });
});
