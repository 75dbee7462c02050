// A stand-in for the user's browser ($BROWSER): it opens the authorization URL mcpscope
// gives it and follows the redirects, which end at mcpscope's loopback listener (the
// suite's authorization servers approve at once).
const url = process.argv[process.argv.length - 1];
try {
  const res = await fetch(url, { redirect: 'follow' });
  await res.text();
} catch (err) {
  console.error(`browser: ${url}: ${err.message}`);
  process.exit(1);
}
