import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { composeReadyMail, type ReadyMailInput } from '../../../src/engine/mail/compose-ready-mail.ts';
import { checkSmtpSettings, parseSmtpUrl } from '../../../src/engine/mail/smtp-sender.ts';

const base: ReadyMailInput = {
  restaurantName: 'Sushi Providencia',
  orderNumber: '1042',
  customerName: 'Ana',
  type: 'retiro',
  locationName: 'Providencia',
  locationAddress: 'Av. Providencia 2124',
  address: null,
  deliveryProvider: null,
  trackingUrl: null,
  items: [{ name: 'California roll', quantity: 2 }],
  total: 13980,
  test: false,
};

describe('the ready mail text', () => {
  test('pickup', () => {
    const mail = composeReadyMail(base);
    assert.equal(mail.subject, 'Tu pedido N° 1042 está listo');
    assert.equal(
      mail.text,
      [
        'Hola, Ana:',
        '',
        'Tu pedido N° 1042 en Sushi Providencia está listo.',
        'Puedes retirarlo en Providencia, Av. Providencia 2124.',
        '',
        'Detalle del pedido:',
        '  2 × California roll',
        'Total: $13.980',
        '',
        '¡Gracias por tu compra!',
        'Sushi Providencia',
        '',
      ].join('\n'),
    );
  });

  test('own delivery, courier with tracking, sandbox, no name', () => {
    const own = composeReadyMail({ ...base, type: 'delivery', address: 'Los Leones 100', deliveryProvider: 'propio' });
    assert.match(own.text, /Pronto saldrá a despacho a Los Leones 100\./);
    const courier = composeReadyMail({
      ...base,
      type: 'delivery',
      address: 'Los Leones 100',
      deliveryProvider: 'simulado',
      trackingUrl: 'https://example.com/t/1',
      customerName: null,
      test: true,
    });
    assert.equal(courier.subject, '[PRUEBA] Tu pedido N° 1042 está listo');
    assert.match(courier.text, /^PRUEBA: este correo corresponde a un pedido de prueba/);
    assert.match(courier.text, /\nHola:\n/);
    assert.match(courier.text, /Pedimos un repartidor para llevarlo a Los Leones 100\.\nPuedes seguir el despacho en https:\/\/example\.com\/t\/1/);
  });
});

describe('SMTP settings', () => {
  test('URLs are read with their defaults', () => {
    assert.deepEqual(parseSmtpUrl('smtp://user:p%40ss@mail.example.com:2525'), {
      host: 'mail.example.com',
      port: 2525,
      secure: false,
      user: 'user',
      password: 'p@ss',
    });
    assert.deepEqual(parseSmtpUrl('smtps://mail.example.com'), { host: 'mail.example.com', port: 465, secure: true, user: null, password: null });
    assert.equal(parseSmtpUrl('smtp://mail.example.com').port, 587);
    assert.equal(checkSmtpSettings({ url: 'smtp://pedidos%40picada.cl:x@mail.example.com' }).fromAddress, 'pedidos@picada.cl');
    assert.equal(checkSmtpSettings({ url: 'smtp://mail.example.com' }).fromAddress, 'no-reply@mail.example.com');
  });

  test('unusable settings say why', () => {
    const cases: [string, string | undefined, RegExp][] = [
      ['mail.example.com', undefined, /not a URL/],
      ['http://mail.example.com', undefined, /must start with smtp:\/\/ or smtps:\/\//],
      ['smtp://:secret@mail.example.com', undefined, /password but no user/],
      ['smtp://mail.example.com', 'pedidos', /not an email address/],
    ];
    for (const [url, from, message] of cases) {
      assert.throws(() => checkSmtpSettings({ url, ...(from ? { from } : {}) }), message, url);
    }
  });
});
