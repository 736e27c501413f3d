// Tickers: in trade-candles' load.js and read.js, so both name the same symbols.
// The same symbols on every run and server, whatever SEED is: the read test queries them by name.
function tickerSymbols(count) {
  var next = mulberry32(20140328);
  var letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  var seen = {};
  var symbols = [];
  while (symbols.length < count) {
    var u = next();
    // roughly the mix of US listings: few 1-2 letter symbols, most of 3 (NYSE) or 4 (NASDAQ)
    var length = u < 0.01 ? 1 : u < 0.07 ? 2 : u < 0.40 ? 3 : u < 0.95 ? 4 : 5;
    var symbol = '';
    for (var k = 0; k < length; k++) symbol += letters[Math.floor(next() * 26)];
    if (seen[symbol]) continue;
    seen[symbol] = true;
    symbols.push(symbol);
  }
  return symbols;
}
