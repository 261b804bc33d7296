// For the suites: one SMTP transaction to the mock's relay (the shared cases' `send_mail`, the relay tests).
import { connect } from 'node:net';

/** A minimal SMTP client (RFC 5321: greeting, EHLO, MAIL, RCPT, DATA, QUIT); rejects on any unexpected reply. */
export function sendMail(host, port, { from, to, subject }) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    const steps = [
      [null, '220'],
      ['EHLO client.example', '250'],
      [`MAIL FROM:<${from}>`, '250'],
      [`RCPT TO:<${to}>`, '250'],
      ['DATA', '354'],
      [`From: <${from}>\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\nHello\r\n.`, '250'],
      ['QUIT', '221'],
    ];
    let buffer = '';
    socket.setEncoding('utf8');
    socket.setTimeout(10_000, () => socket.destroy(new Error('SMTP timeout')));
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      buffer += chunk;
      const reply = /(?:^|\n)(\d{3}) [^\n]*\n$/.exec(buffer); // the last line of a reply: "NNN text"
      if (!reply) return;
      const [command, expected] = steps.shift();
      if (reply[1] !== expected) {
        socket.destroy();
        reject(new Error(`${command ?? 'greeting'}: ${buffer.trim()}`));
        return;
      }
      buffer = '';
      if (steps.length) socket.write(`${steps[0][0]}\r\n`);
      else socket.end(() => resolve());
    });
  });
}
