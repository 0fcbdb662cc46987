import styles from './landing-background.module.css';

/**
 * The landing page's moving backdrop: slow concentric rings, an abstract eardrum, over a deep
 * gradient. Pure CSS and SVG, nothing fetched; still for people who ask for reduced motion.
 */
export function LandingBackground() {
  return (
    <div className={styles.background} aria-hidden="true">
      <div className={`${styles.glow} ${styles.glowA}`} />
      <div className={`${styles.glow} ${styles.glowB}`} />
      <svg className={styles.rings} viewBox="0 0 800 800" role="presentation">
        {[110, 170, 230, 290, 350].map((radius, index) => (
          <circle
            key={radius}
            cx="400"
            cy="400"
            r={radius}
            className={styles.ring}
            style={{ animationDelay: `${index * -2.4}s` }}
          />
        ))}
        <circle cx="400" cy="400" r="380" className={styles.dashed} />
      </svg>
    </div>
  );
}
