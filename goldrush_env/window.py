"""A pygame window for ``render_mode="human"``: the environment's ``rgb_array`` picture, frame by frame.

pygame is imported only when the first frame is drawn, so the environments
need it only in ``"human"`` mode (the ``render`` extra: ``pip install -e ".[render]"``).
Frames are paced at the environment's ``render_fps``; closing the window
stops the drawing, not the game. Headless machines can use SDL's dummy
video driver (``SDL_VIDEODRIVER=dummy``), as the tests do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from goldrush_env.errors import GoldrushEnvError, install_line

TITLE = "Gold (goldrush-env)"


class Window:
    """Shows RGB frames (H x W x 3 uint8) in a window opened at the first frame, at most ``fps`` a second."""

    def __init__(self, fps: float) -> None:
        self.fps = fps
        self._pygame: Any = None
        self._screen: Any = None
        self._clock: Any = None
        self.closed_by_user = False

    def show(self, frame: np.ndarray) -> None:
        if self.closed_by_user:
            return
        pygame = self._open(frame.shape[1], frame.shape[0])
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.close()
                self.closed_by_user = True
                return
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(frame.transpose(1, 0, 2)))
        self._screen.blit(surface, (0, 0))
        pygame.display.flip()
        self._clock.tick(self.fps)

    def _open(self, width: int, height: int) -> Any:
        if self._screen is None:
            try:
                import pygame
            except ImportError as error:
                raise GoldrushEnvError(f'render_mode="human" draws in a pygame window: the \'render\' extra, '
                                       f'{install_line("render")} (or pygame alone); "ansi" and "rgb_array" need '
                                       'nothing more') from error
            pygame.display.init()
            pygame.display.set_caption(TITLE)
            self._screen = pygame.display.set_mode((width, height))
            self._clock = pygame.time.Clock()
            self._pygame = pygame
        return self._pygame

    @property
    def is_open(self) -> bool:
        return self._screen is not None

    def close(self) -> None:
        if self._screen is not None:
            self._pygame.display.quit()
            self._screen = None
