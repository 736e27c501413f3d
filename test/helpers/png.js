'use strict';
const { loadImage, createCanvas } = require('canvas');

/** Decodes a PNG and counts its distinct colours on a sample grid: a blank image has one. */
async function inspectPng(buffer) {
  const image = await loadImage(buffer);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  const colours = new Set();
  for (let i = 0; i < data.length; i += 4 * 7) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return { width: image.width, height: image.height, distinctColours: colours.size };
}

module.exports = { inspectPng };
