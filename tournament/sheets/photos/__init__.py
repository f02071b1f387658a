"""Reading photos of paper score sheets at the desk (docs/photos.md): sending them
(``sending``), the task that reads them (``reading``, ``tasks``), the photo's pixels
(``images``) and the desk's sheet form filled from a reading (``filling``).

The reader itself, and OpenCV with it, is imported only where a photo is read, never when
the app starts."""
