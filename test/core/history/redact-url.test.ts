import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactText, redactUrl } from '../../../src/core/history/redact-url.js';

test('every credential form of a store URL is masked; the rest stays readable', () => {
  const rows: Array<[string, string]> = [
    ['postgres://u@h/db', 'postgres://u@h/db'],
    ['postgres://u:S3cret@h:5432/db', 'postgres://u:***@h:5432/db'],
    ['postgres://u@h/db?password=S3cret', 'postgres://u@h/db?password=***'],
    ['postgresql://u@h/db?sslpassword=S3cret&sslmode=require', 'postgresql://u@h/db?sslpassword=***&sslmode=require'],
    ['postgres://u@h/db?PASSWORD=a&Password=b', 'postgres://u@h/db?PASSWORD=***&Password=***'],
    ['postgres://u@h/db?pass%77ord=S3cret', 'postgres://u@h/db?password=***'],
    ['postgres://u@h/db?sslkey=/k.pem&passfile=/p&api_token=t&client_secret=s&application_name=app', 'postgres://u@h/db?sslkey=***&passfile=***&api_token=***&client_secret=***&application_name=app'],
    ['postgres://u:p@h/db?password=q&password=r', 'postgres://u:***@h/db?password=***&password=***'],
    ['not a url :pass@', '(unparsable URL)'],
  ];
  for (const [url, want] of rows) assert.equal(redactUrl(url), want, url);
});

test('a message about the store: its URLs redacted and the URL’s credential values masked wherever they appear', () => {
  const url = 'postgres://u:UserPass1@h/db?password=Query%26Pass&sslpassword=SslPass';
  const text = `connect to postgres://u:UserPass1@h/db?sslpassword=SslPass failed; password "Query&Pass" rejected; key SslPass; UserPass1`;
  const out = redactText(text, url);
  for (const secret of ['UserPass1', 'Query&Pass', 'Query%26Pass', 'SslPass']) assert.ok(!out.includes(secret), `${secret} in ${out}`);
  assert.match(out, /connect to postgres:\/\/u:\*\*\*@h\/db\?sslpassword=\*\*\* failed/);
  assert.equal(redactText('no url here', undefined), 'no url here');
});
