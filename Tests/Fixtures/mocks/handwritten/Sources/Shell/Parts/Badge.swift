public enum Badge { case free, plus }
