import { type DragEvent, useState } from 'react';

/**
 * Drag and drop to reorder the designer's elements with the mouse (issue 48 item 6); the arrow buttons
 * beside each element do the same from the keyboard. `Place` says where an element is (a visit's index,
 * an item's section and index); a drop on another place of the same list calls `onDrop(from, to)`.
 * A drag is only accepted by the list it started in, so a visit never lands among the forms.
 */
export function useDragReorder<Place>({
  samePlace,
  onDrop,
}: {
  samePlace: (a: Place, b: Place) => boolean;
  onDrop: (from: Place, to: Place) => void;
}) {
  const [dragged, setDragged] = useState<Place | null>(null);
  const [over, setOver] = useState<Place | null>(null);

  function end() {
    setDragged(null);
    setOver(null);
  }

  return {
    /** Props of what is picked up: the element's grip, or the element itself. */
    dragProps(place: Place) {
      return {
        draggable: true,
        'data-dragging': (dragged !== null && samePlace(dragged, place)) || undefined,
        onDragStart(event: DragEvent) {
          event.dataTransfer.effectAllowed = 'move';
          // Some browsers start no drag without data.
          event.dataTransfer.setData('text/plain', '');
          setDragged(place);
        },
        onDragEnd: end,
      };
    },
    /** Props of where it may be dropped, marked while the drag is over it. */
    dropProps(place: Place) {
      return {
        'data-drop-over': (over !== null && dragged !== null && samePlace(over, place)) || undefined,
        onDragOver(event: DragEvent) {
          if (dragged === null) return; // not this list's drag: an outer list may take it
          event.preventDefault();
          event.stopPropagation();
          event.dataTransfer.dropEffect = 'move';
          if (over === null || !samePlace(over, place)) setOver(place);
        },
        onDragLeave(event: DragEvent) {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(null);
        },
        onDrop(event: DragEvent) {
          if (dragged === null) return;
          event.preventDefault();
          event.stopPropagation();
          if (dragged !== null && !samePlace(dragged, place)) onDrop(dragged, place);
          end();
        },
      };
    },
  };
}
