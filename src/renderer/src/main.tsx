import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '@xyflow/react/dist/style.css'
import './styles.css'
import { App } from './App'
import { startTheme } from './theme'

startTheme()
const container = document.getElementById('root')
if (container === null) throw new Error('index.html has no #root element')
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>
)
