from jasscam.cli import main

raise SystemExit(main())
