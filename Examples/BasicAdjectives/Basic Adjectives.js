// Lesson script: shows each adjective with its picture and plays its audio.
function showItem(item) {
  display.image(item.image);
  display.caption(item.word + " — " + item.translation);
  if (item.audio) { audio.play(item.audio); }
}
lesson.items.forEach(showItem);
